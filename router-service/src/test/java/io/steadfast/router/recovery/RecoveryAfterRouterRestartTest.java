package io.steadfast.router.recovery;

import static io.steadfast.router.recovery.RecoveryOrchestratorTest.A;
import static io.steadfast.router.recovery.RecoveryOrchestratorTest.B;
import static io.steadfast.router.recovery.RecoveryOrchestratorTest.C;
import static io.steadfast.router.recovery.RecoveryOrchestratorTest.SINK;
import static io.steadfast.router.recovery.RecoveryOrchestratorTest.SPEC;
import static io.steadfast.router.recovery.RecoveryOrchestratorTest.T;
import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.EmbeddedMongo;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.CheckpointingStatus;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.placement.EvenTaskPlacer;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * A router that restarts while a recovery is RECOVERING: its records are in the embedded MongoDB-wire server over
 * TCP ({@link MongoTopologyRepository}, {@link MongoRecoveryStore}), and the restarted router is a new set of
 * objects on the same database, as after a process restart.
 */
class RecoveryAfterRouterRestartTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FakeHostClient hostClient = new FakeHostClient();
    private final InMemoryCheckpointRecords records = new InMemoryCheckpointRecords(clock);
    private EmbeddedMongo mongo;
    private MongoTemplate database;

    /** The objects of one router process over the shared database. */
    private final class Router {
        final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
        final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofMillis(800));
        final MongoTopologyRepository topologies = new MongoTopologyRepository(database);
        final TopologyProgress progress = new TopologyProgress(detector);
        final CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
                (host, topology, id) -> { }, progress, clock,
                new CheckpointSettings(Duration.ofSeconds(1), Duration.ofSeconds(10), 1));
        final RecoveryLog log = new RecoveryLog(new MongoRecoveryStore(database));
        final RecoveryOrchestrator orchestrator = RecoveryOrchestrator.builder().topologies(topologies)
                .detector(detector).placer(new EvenTaskPlacer()).hostClient(hostClient)
                .checkpoints(records, coordinators).progress(progress).log(log).clock(clock).build();

        void register(HostId... ids) {
            for (HostId host : ids) {
                hosts.register(host, URI.create("http://" + host.value()), "tcp://" + host.value() + ":1",
                        clock.instant());
            }
        }

        void heartbeat(HostId host, long sinkRecordsIn) {
            boolean sinkHere = host.equals(topologies.find(T).orElseThrow().placement().get(SINK));
            hosts.heartbeat(host, sinkHere ? List.of(new TaskReport(SINK.toString(), "latest-value-sink",
                    TaskStatus.RUNNING, TaskReport.Throughput.takenIn(sinkRecordsIn),
                    TaskReport.InputHealth.IDLE, null, null)) : List.of(), clock.instant());
        }
    }

    @BeforeEach
    void startServer() {
        mongo = EmbeddedMongo.start();
        database = mongo.records("steadfast-router");
    }

    @AfterEach
    void stopServer() {
        mongo.close();
    }

    private static DeployedTopology topology(int epoch, Map<TaskId, HostId> placement) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC)).withEpoch(epoch);
        return new DeployedTopology(T, JsonMapper.builder().build().readTree(SPEC), plan, placement,
                Instant.parse("2026-01-01T00:00:00Z"));
    }

    private static Map<TaskId, HostId> onThreeHosts() {
        return Map.of(TaskId.parse("t/source#0"), A, TaskId.parse("t/count#0"), B, TaskId.parse("t/count#1"), C,
                SINK, A);
    }

    /** What the router that died left in the database: a recovery of host C's failure, RECOVERING. */
    private Recovery recoveringWhenTheRouterDied(Router dying, boolean redeployed) {
        Instant detected = clock.instant();
        Recovery recovery = Recovery.builder().id(dying.log.nextId()).topology(T)
                .tasks(List.of(TaskId.parse("t/count#1"))).failure(C, detected.minusMillis(900), detected).detection(900, null).restoration(null, 0, 500)
                .status(RecoveryStatus.RECOVERING, null, "recovering").build();
        if (redeployed) {
            recovery = recovery.restored(detected.plusMillis(300), 1, null, 500, "Topology 't' redeployed as epoch 1");
        }
        dying.log.save(recovery);
        return recovery;
    }

    @Test
    void aRecoveryInterruptedBeforeItRedeployedIsAbandonedAndTheTopologyRecoveredAfreshOnceHostsReRegistered() {
        Router dying = new Router();
        dying.topologies.add(topology(0, onThreeHosts()));
        Recovery interrupted = recoveringWhenTheRouterDied(dying, false);

        Router restarted = new Router();
        assertThat(restarted.orchestrator.resumeAfterRestart()).hasSize(1);

        Recovery abandoned = new RecoveryLog(new MongoRecoveryStore(database)).all().get(0);
        assertThat(abandoned.id()).isEqualTo(interrupted.id());
        assertThat(abandoned.status()).isEqualTo(RecoveryStatus.ABANDONED);
        assertThat(abandoned.failureReason()).isEqualTo("ROUTER_RESTARTED");
        assertThat(abandoned.message()).contains("The router restarted during this recovery");
        CheckpointingStatus paused = restarted.coordinators.status(T).orElseThrow();
        assertThat(paused.state()).isEqualTo(CheckpointingStatus.State.PAUSED);
        assertThat(paused.reason()).contains("interrupted by a router restart");

        // Every host is back (even C): the placement looks healthy, but what the hosts run is unknown
        restarted.register(A, B, C);
        restarted.orchestrator.recoverHostsNeverSeen(clock.instant());
        assertThat(hostClient.deployments).as("no host is missing, so no never-seen recovery").isEmpty();
        restarted.orchestrator.recoverInterrupted();

        assertThat(hostClient.cancelled).containsExactlyInAnyOrder("t@host-a", "t@host-b", "t@host-c");
        assertThat(hostClient.deployments).hasSize(3).allMatch(d -> d.endsWith(":1:-"));
        Recovery fresh = restarted.log.all().get(0);
        assertThat(fresh.id()).isGreaterThan(interrupted.id());
        assertThat(fresh.status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(fresh.restoredAt()).isNotNull();
        assertThat(restarted.topologies.find(T).orElseThrow().plan().epoch()).isEqualTo(1);
        assertThat(restarted.coordinators.status(T).orElseThrow().state()).isEqualTo(CheckpointingStatus.State.ACTIVE);
        assertThat(new RecoveryLog(new MongoRecoveryStore(database)).all()).extracting(Recovery::status)
                .containsExactly(RecoveryStatus.RECOVERING, RecoveryStatus.ABANDONED);

        hostClient.deployments.clear();
        restarted.orchestrator.recoverInterrupted();
        assertThat(hostClient.deployments).as("recovered once only").isEmpty();
    }

    @Test
    void anInterruptedRecoveryOfATopologyWhoseHostNeverCameBackIsLeftToTheNeverSeenRecovery() {
        Router dying = new Router();
        dying.topologies.add(topology(0, onThreeHosts()));
        recoveringWhenTheRouterDied(dying, false);

        Router restarted = new Router();
        restarted.orchestrator.resumeAfterRestart();
        restarted.register(A, B);
        restarted.orchestrator.recoverHostsNeverSeen(clock.instant());
        restarted.orchestrator.recoverInterrupted();

        assertThat(hostClient.deployments).containsExactlyInAnyOrder("t@host-a:1:-", "t@host-b:1:-");
        assertThat(restarted.log.all()).extracting(Recovery::status)
                .containsExactly(RecoveryStatus.RECOVERING, RecoveryStatus.ABANDONED);
        assertThat(restarted.log.all().get(0).failedHost()).isEqualTo(C);
    }

    @Test
    void aRecoveryThatHadRedeployedBeforeTheRestartIsKeptAndCompletesWhenTheSinksCatchUp() {
        Router dying = new Router();
        dying.topologies.add(topology(1, Map.of(TaskId.parse("t/source#0"), A, TaskId.parse("t/count#0"), B,
                TaskId.parse("t/count#1"), A, SINK, A)));
        recoveringWhenTheRouterDied(dying, true);

        Router restarted = new Router();
        assertThat(restarted.orchestrator.resumeAfterRestart()).isEmpty();
        restarted.register(A, B);
        restarted.orchestrator.recoverHostsNeverSeen(clock.instant());
        restarted.orchestrator.recoverInterrupted();
        assertThat(hostClient.deployments).as("the topology runs in its new epoch: not redeployed").isEmpty();

        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofMillis(200));
            restarted.heartbeat(A, 500);
            restarted.heartbeat(B, 500);
        }
        restarted.orchestrator.checkProgress();

        assertThat(new RecoveryLog(new MongoRecoveryStore(database)).all().get(0).status())
                .isEqualTo(RecoveryStatus.RECOVERED);
    }

    @Test
    void aRecoveryThatHadFailedBeforeTheRestartPausesCheckpointingAndIsRetriedOnceHostsHadTimeToComeBack() {
        Router dying = new Router();
        dying.topologies.add(topology(0, onThreeHosts()));
        Recovery recovering = recoveringWhenTheRouterDied(dying, false);
        dying.log.save(recovering.failed("NO_LIVE_HOSTS", "no host is LIVE"));

        Router restarted = new Router();
        assertThat(restarted.orchestrator.resumeAfterRestart()).as("nothing RECOVERING to abandon").isEmpty();
        assertThat(restarted.coordinators.status(T).orElseThrow().reason()).contains("had failed (NO_LIVE_HOSTS)");
        clock.advance(RecoveryOrchestrator.RETRY_BACKOFF);
        restarted.register(A, B, C);
        restarted.orchestrator.retryFailed();
        assertThat(hostClient.deployments).as("not before the restart grace is over").isEmpty();

        restarted.orchestrator.recoverInterrupted();
        restarted.orchestrator.retryFailed();

        assertThat(hostClient.deployments).hasSize(3).allMatch(d -> d.endsWith(":1:-"));
        assertThat(restarted.log.all().get(0).status()).isEqualTo(RecoveryStatus.RECOVERING);
        assertThat(restarted.coordinators.status(T).orElseThrow().state()).isEqualTo(CheckpointingStatus.State.ACTIVE);
    }
}
