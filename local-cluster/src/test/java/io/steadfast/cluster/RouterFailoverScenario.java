package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.protocol.router.LeaderView;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two router processes elect their leader through a lease (in the embedded store, {@link RouterFailoverIT}; in the
 * Kubernetes API, {@link KubernetesLeaseFailoverIT}); a word count runs on three hosts and a standby. The leader is killed with SIGKILL: the standby takes over (a new epoch), keeps
 * coordinating checkpoints, and recovers the topology when a host is killed next. The killed router comes back as a
 * standby; the new leader is frozen (SIGSTOP) until the other takes over, and when it runs again it halts at once
 * (status 75) instead of acting. The counts are exact, key by key, against the failure-free reference. Logs stay in
 * {@code local-cluster/target/e2e-run/<cluster name>-<timestamp>/}.
 */
@Timeout(420)
abstract class RouterFailoverScenario {

    private static final int KEYS = 1000;
    private static final int COUNT = 4_000_000;
    private static final int RATE_PER_SECOND = 40_000;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration TAKEOVER = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);

    /** The cluster: three hosts, a standby host and two router replicas. */
    abstract ClusterFixture cluster();

    @Test
    void aStandbyRouterTakesOverFromAKilledLeaderAndADeposedLeaderHaltsWhenItRunsAgain() {
        ClusterFixture cluster = cluster();
        ClusterProcesses processes = cluster.processes();
        URI first = processes.routerUrls().get(0);
        URI second = processes.routerUrls().get(1);
        LeaderView initial = new RouterClient(first).leader();
        assertThat(initial.role()).isEqualTo(LeaderView.LEADER);
        assertThat(initial.leader()).isEqualTo(first);
        assertThat(new RouterClient(second).leader().role()).isEqualTo(LeaderView.STANDBY);

        RouterClient router = cluster.router();
        TopologyId id = router.deploy(TestTopologies.wordCount("failover-wc", COUNT, KEYS, RATE_PER_SECOND)).id();
        cluster.awaitCompletedCheckpoints(id, 2);
        long checkpointBefore = router.checkpoints(id).latestCompletedCheckpoint().orElseThrow().checkpointId().value();

        cluster.log("killing the leading router " + first + " (SIGKILL)");
        long killedAt = System.nanoTime();
        processes.killRouter(0);
        LeaderView takenOver = awaitLeader(second, initial.epoch());
        cluster.log("router " + second + " leads in epoch " + takenOver.epoch() + " "
                + Duration.ofNanos(System.nanoTime() - killedAt).toMillis() + " ms after the kill");
        assertThat(router.topology(id).allTasksFinished()).as("still running after the failover").isFalse();
        cluster.awaitCheckpointCompletedAfter(id, checkpointBefore);
        assertThat(router.recoveries()).as("the failover recovered nothing: the hosts went on")
                .filteredOn(r -> r.topology().equals(id)).isEmpty();

        HostId victim = cluster.killHostRunningTasks(id);
        cluster.awaitRecovered(id, victim, Duration.ofSeconds(90));

        cluster.restartRouterReplica(0);
        assertThat(new RouterClient(first).leader().role()).as("the restarted router stands by")
                .isEqualTo(LeaderView.STANDBY);
        ServiceProcess deposed = processes.routers().get(1);
        cluster.log("freezing the leading router " + second + " (SIGSTOP) until " + first + " takes over");
        processes.pauseRouter(1);
        LeaderView third = awaitLeader(first, takenOver.epoch());
        cluster.log("router " + first + " leads in epoch " + third.epoch() + "; letting " + second + " run again");
        processes.resumeRouter(1);
        await("the deposed router halts").atMost(Duration.ofSeconds(10)).pollInterval(POLL)
                .until(() -> !deposed.isAlive());
        assertThat(deposed.exitCode()).as("halted for having lost its lease").isEqualTo(OptionalInt.of(75));
        assertThat(deposed.logContains("stops leading (epoch " + takenOver.epoch() + ")")).isTrue();

        Map<String, Long> counts = cluster.finalCounts(id, SINK, Duration.ofSeconds(180));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(COUNT, KEYS));
        assertThat(cluster.router().delete(id)).isTrue();
    }

    /** Waits until the router at {@code url} leads in an epoch above {@code before}. */
    private static LeaderView awaitLeader(URI url, long before) {
        RouterClient replica = new RouterClient(url);
        return await("router " + url + " leads after epoch " + before).atMost(TAKEOVER).pollInterval(POLL)
                .ignoreExceptions().until(replica::leader,
                        view -> view.role().equals(LeaderView.LEADER) && view.epoch() > before);
    }
}
