package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Chaos with real processes, local recovery: a checkpoint-service, a router keeping two warm standby hosts, and
 * five hosts run a job with a multi-input operator (two paced sources unioned into a keyed count, then a sink) for
 * more than a minute, while host processes running its tasks are killed with SIGKILL at random, about ten times:
 * hosts that took over tasks from an earlier failure included, one fresh host started after each kill (the next
 * standby, once LIVE); a kill waits until at least two hosts are LIVE. The final
 * count of every key must equal that of a failure-free reference run and of the generators' distribution, exactly;
 * every recovery must have been LOCAL (lost tasks alone, in place) and no other task restarted or rolled back.
 * The random seed is printed (set {@code -Dsteadfast.chaos.seed} to replay a run); logs stay in
 * {@code local-cluster/target/e2e-run/chaos-<timestamp>/}.
 */
@Timeout(600)
class LocalRecoveryChaosIT {

    private static final int KEYS = 500;
    private static final int RATE_PER_SOURCE = 10_000;
    /** Warm standby hosts the router keeps: a fresh JVM needs 10-40 s to become LIVE on a loaded 2-core machine. */
    private static final int STANDBY_HOSTS = 2;
    /** How long the sources emit for. */
    private static final Duration RUN = Duration.ofSeconds(180);
    private static final int KILLS = 10;
    /** Mean time between two kills. */
    private static final Duration KILL_INTERVAL = Duration.ofSeconds(7);
    private static final int HOSTS = 3;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration POLL = Duration.ofMillis(100);

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("chaos", HOSTS).andStandbyHosts(STANDBY_HOSTS);

    private final RouterClient router = CLUSTER.router();
    private final ClusterProcesses processes = CLUSTER.processes();

    @Test
    void randomHostKillsOverAMinuteLeaveEveryKeyExactAndNeverStopTheOtherTasks() {
        long seed = Long.getLong("steadfast.chaos.seed", System.nanoTime());
        CLUSTER.log("chaos seed " + seed + " (replay with -Dsteadfast.chaos.seed=" + seed + ")");
        Random random = new Random(seed);
        long perSource = RATE_PER_SOURCE * RUN.toSeconds();
        TopologyOutcomes outcomes = CLUSTER.outcomes();
        TopologyId id = router.deploy(unionCount("chaos", perSource, RATE_PER_SOURCE)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 1);

        Instant firstKill = null;
        List<HostId> killed = new ArrayList<>();
        while (killed.size() < KILLS) {
            Instant next = Instant.now().plusMillis(KILL_INTERVAL.toMillis() / 2 + random.nextLong(KILL_INTERVAL.toMillis()));
            await().atMost(KILL_INTERVAL.multipliedBy(2)).pollInterval(POLL).until(() -> !Instant.now().isBefore(next));
            awaitAnotherLiveHost(id);
            HostId victim = randomHostRunning(id, random);
            CLUSTER.log("kill " + (killed.size() + 1) + ": " + victim + " (SIGKILL), running "
                    + TaskHosts.tasksOn(router.topology(id), victim));
            processes.killHost(victim);
            firstKill = firstKill == null ? Instant.now() : firstKill;
            killed.add(victim);
            CLUSTER.awaitRecovered(id, victim, Duration.ofSeconds(60));
            processes.startHost(processes.nextHostId()); // the next warm standby, LIVE in a few seconds
        }
        assertThat(Duration.between(firstKill, Instant.now())).as("kills spread over about a minute")
                .isGreaterThan(Duration.ofSeconds(50));

        Map<String, Long> counts = CLUSTER.finalCounts(id, SINK, Duration.ofSeconds(180));
        List<RecoveryView> recoveries = router.recoveries().stream().filter(r -> r.topology().equals(id)).toList();
        recoveries.forEach(outcomes::describe);
        assertThat(recoveries).as("one recovery per kill, each of the lost tasks alone, the others never stopping")
                .hasSize(killed.size()).allSatisfy(r -> {
                    assertThat(r.isRecovered()).isTrue();
                    assertThat(r.restoration().mode()).isEqualTo(RecoveryMode.LOCAL);
                    assertThat(r.restoration().otherTasksPaused()).isFalse();
                });
        assertThat(killed).as("a host that had taken over tasks from an earlier failure was killed too")
                .anySatisfy(host -> assertThat(wasTargetOfARecovery(host, recoveries)).isTrue());
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(expected(perSource));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(
                outcomes.referenceCounts(unionCount("chaos-reference", perSource, 0), SINK, Duration.ofSeconds(180)));
        assertThat(router.delete(id)).isTrue();
    }

    private static boolean wasTargetOfARecovery(HostId host, List<RecoveryView> recoveries) {
        return recoveries.stream().anyMatch(r -> r.placedAnyTaskOn(host));
    }

    /**
     * Waits until at least two hosts are LIVE, so that one is left to recover onto whichever is killed: a standby
     * if one is LIVE (fresh JVMs need 10-40 s on a loaded 2-core machine), else the least loaded live host.
     */
    private void awaitAnotherLiveHost(TopologyId id) {
        await("two LIVE hosts for %s".formatted(id)).atMost(Duration.ofSeconds(90)).pollInterval(POLL)
                .until(() -> router.hosts().stream().filter(host -> host.isLive()).count() >= 2);
    }

    /** A live host running an unfinished task of the topology, chosen at random. */
    private HostId randomHostRunning(TopologyId id, Random random) {
        TopologyDetail view = router.topology(id);
        assertThat(view.allTasksFinished()).as("the job still runs at each kill").isFalse();
        List<HostId> live = processes.liveHostIds();
        List<HostId> running = TaskHosts.runningUnfinishedTasks(view).stream().filter(live::contains).toList();
        assertThat(running).as("hosts running tasks of %s", id).isNotEmpty();
        return running.get(random.nextInt(running.size()));
    }

    /** Each source emits {@code perSource} events over the same keys: every key counts both. */
    private static Map<String, Long> expected(long perSource) {
        Map<String, Long> expected = new TreeMap<>();
        TestTopologies.expectedCounts((int) perSource, KEYS).forEach((key, n) -> expected.put(key, 2 * n));
        return expected;
    }

    /** Two sources unioned into one keyed count: the count task takes input from several channels. */
    private static String unionCount(String id, long perSource, int ratePerSource) {
        String paced = TestTopologies.pacedFromNow(ratePerSource);
        return """
                {"id": "%s", "checkpointing": {"intervalMs": 1000},
                 "operators": [
                   {"id": "left", "type": "generator", "parallelism": 1,
                    "config": {"count": %d, "keys": %d%s}},
                   {"id": "right", "type": "generator", "parallelism": 1,
                    "config": {"count": %d, "keys": %d%s}},
                   {"id": "count", "type": "keyed-count", "parallelism": 3,
                    "inputs": [{"from": "left", "partitioning": "key"}, {"from": "right", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(id, perSource, KEYS, paced, perSource, KEYS, paced);
    }
}
