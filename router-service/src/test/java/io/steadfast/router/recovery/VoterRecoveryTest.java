package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.EvenTaskPlacer;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A lost task is recovered in place onto a host of its kind: a vote task onto a voter (the voter standby first, never
 * the idle PE standby), a version or any other task onto a PE host (never the idle voter); with no voter LIVE the
 * recovery waits, retried, until one registers.
 */
class VoterRecoveryTest {

    private static final String SPEC = """
            {"id": "nv", "operators": [
              {"id": "source", "type": "generator"},
              {"id": "score", "inputs": [{"from": "source"}],
               "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
            ]}""";
    private static final TopologyId NV = TopologyId.of("nv");
    private static final HostId A = new HostId("host-a");
    private static final HostId B = new HostId("host-b");
    private static final HostId PE_STANDBY = new HostId("host-s");
    private static final HostId VOTER = new HostId("voter-1");
    private static final HostId VOTER_STANDBY = new HostId("voter-2");
    private static final TaskId SOURCE = TaskId.parse("nv/source#0");
    private static final TaskId VERSION_0 = TaskId.parse("nv/score~v0#0");
    private static final TaskId VERSION_1 = TaskId.parse("nv/score~v1#0");
    private static final TaskId VOTE = TaskId.parse("nv/score#0");
    private static final TaskId SINK = TaskId.parse("nv/sink#0");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry registry = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(registry, clock,
            Duration.ofMillis(800));
    private final InMemoryTopologyRepository deployed = new InMemoryTopologyRepository();
    private final FakeHostClient hostClient = new FakeHostClient();
    private final CheckpointCoordinators checkpoints = new CheckpointCoordinators(deployed,
            new InMemoryCheckpointRecords(clock), (host, topology, id) -> { }, new TopologyProgress(detector), clock,
            new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));
    private final RecoveryLog recoveries = new RecoveryLog();
    private final RecoveryOrchestrator orchestrator = RecoveryOrchestrator.builder().topologies(deployed)
            .detector(detector).placer(new EvenTaskPlacer()).hostClient(hostClient)
            .checkpoints(new InMemoryCheckpointRecords(clock), checkpoints).progress(new TopologyProgress(detector))
            .log(recoveries).clock(clock).standby(new StandbyHosts(1)).build();

    @AfterEach
    void close() throws Exception {
        orchestrator.close();
        checkpoints.close();
    }

    private void register(HostId host, HostKind kind) {
        registry.register(host, kind, URI.create("http://" + host), "tcp://" + host + ":1", null, clock.instant());
    }

    /**
     * Versions on A and B, the vote on the voter; then, registered last and so idle standbys, a PE host and, if asked,
     * a second voter. Returns the id of a checkpoint completed by every task.
     */
    private long deploy(boolean voterStandby) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        register(A, HostKind.PE);
        register(B, HostKind.PE);
        register(VOTER, HostKind.VOTER);
        clock.advance(Duration.ofMillis(10));
        register(PE_STANDBY, HostKind.PE);
        if (voterStandby) {
            register(VOTER_STANDBY, HostKind.VOTER);
        }
        deployed.add(new DeployedTopology(NV, JsonNodeFactory.instance.objectNode(), plan, Map.of(SOURCE, A,
                VERSION_0, A, VERSION_1, B, VOTE, VOTER, SINK, B), clock.instant()));
        detector.sweep();
        checkpoints.tick();
        clock.advance(Duration.ofSeconds(1));
        beatAllBut(null);
        checkpoints.tick();
        long checkpoint = checkpoints.lastTriggeredId(NV);
        deployed.find(NV).orElseThrow().placement().forEach((task, host) -> checkpoints.acknowledge(NV, checkpoint,
                new TaskAck(task, host, 0, 1, 0, 0)));
        assertThat(checkpoints.lastCompleted(NV)).isPresent();
        return checkpoint;
    }

    /** Every registered host but {@code silent} sends a heartbeat. */
    private void beatAllBut(HostId silent) {
        registry.all().stream().map(RegisteredHost::id).filter(host -> !host.equals(silent))
                .forEach(host -> registry.heartbeat(host, List.of(), clock.instant()));
    }

    /** {@code host} goes silent while the others beat on, until it is detected DEAD. */
    private DetectedFailure lose(HostId host) {
        for (int beat = 0; beat < 2; beat++) {
            beatAllBut(host);
            clock.advance(Duration.ofMillis(450));
        }
        detector.sweep();
        return detector.failures().stream().filter(failure -> failure.host().equals(host)).findFirst().orElseThrow();
    }

    @Test
    void aLostVoteTaskRecoversInPlaceOnTheVoterStandbyNotOnTheIdlePeStandby() {
        long checkpoint = deploy(true);

        orchestrator.recover(lose(VOTER));

        assertThat(hostClient.recoveries).containsExactly("nv@voter-2:[nv/score#0]:" + checkpoint);
        assertThat(deployed.find(NV).orElseThrow().placement()).containsEntry(VOTE, VOTER_STANDBY);
        assertThat(recoveries.all()).singleElement().satisfies(recovery ->
                assertThat(recovery.mode()).isEqualTo(RecoveryMode.LOCAL));
    }

    @Test
    void theLostVersionsAndSourceOfAPeHostRecoverOnThePeStandbyNotOnTheIdleVoter() {
        long checkpoint = deploy(true);

        orchestrator.recover(lose(A));

        assertThat(hostClient.recoveries).containsExactly("nv@host-s:[nv/score~v0#0, nv/source#0]:" + checkpoint);
        assertThat(deployed.find(NV).orElseThrow().placement()).containsEntry(VERSION_0, PE_STANDBY)
                .containsEntry(VOTE, VOTER);
    }

    @Test
    void withNoVoterLeftTheRecoveryFailsSayingToStartOneAndRecoversLocallyOnceOneRegisters() {
        long checkpoint = deploy(false);

        orchestrator.recover(lose(VOTER));

        assertThat(hostClient.recoveries).as("the idle PE standby does not take the vote task").isEmpty();
        assertThat(recoveries.all()).singleElement().satisfies(recovery -> {
            assertThat(recovery.status()).isEqualTo(RecoveryStatus.FAILED);
            assertThat(recovery.failureReason()).isEqualTo("NO_LIVE_HOSTS");
            assertThat(recovery.message()).contains("no VOTER host is LIVE", "start a voter-service");
        });

        HostId fresh = new HostId("voter-3");
        register(fresh, HostKind.VOTER);
        clock.advance(Duration.ofSeconds(3));
        beatAllBut(VOTER);
        orchestrator.retryFailed();

        assertThat(hostClient.recoveries).containsExactly("nv@voter-3:[nv/score#0]:" + checkpoint);
        assertThat(recoveries.latestOf(NV)).hasValueSatisfying(recovery -> {
            assertThat(recovery.mode()).isEqualTo(RecoveryMode.LOCAL);
            assertThat(recovery.status()).isEqualTo(RecoveryStatus.RECOVERING);
        });
    }
}
