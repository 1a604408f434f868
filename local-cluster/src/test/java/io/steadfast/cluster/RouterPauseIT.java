package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The router's own pauses are not its hosts' failures: a word count runs on three hosts while the router process is
 * frozen (SIGSTOP) three times, each past the heartbeat timeout (800 ms), as a long garbage-collection pause or a
 * paused machine freezes it. The hosts' leases lapse meanwhile and they hold their output; when the router runs
 * again it reads the heartbeats that waited in its sockets, so no host is declared DEAD, nothing is recovered, and
 * every count is exact. Logs stay in {@code local-cluster/target/e2e-run/router-pause-<timestamp>/}.
 */
@Timeout(300)
class RouterPauseIT {

    private static final int KEYS = 500;
    private static final int COUNT = 1_200_000;
    private static final int RATE_PER_SECOND = 40_000;
    private static final OperatorId SINK = new OperatorId("sink");
    /** From just past the heartbeat timeout to several times it. */
    private static final Duration[] PAUSES = {Duration.ofMillis(1_200), Duration.ofMillis(3_000),
            Duration.ofMillis(2_000)};

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("router-pause", 3);

    /** Ends each freeze after its length, as the end of a pause comes, while the test waits for it. */
    private final ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopResumer() {
        resumer.shutdownNow();
    }

    @Test
    void hostsOutliveTheRoutersOwnPausesWithExactResults() {
        RouterClient router = CLUSTER.router();
        Set<HostId> hosts = router.liveHostIds();
        TopologyId id = router.deploy(TestTopologies.wordCount("pause-wc", COUNT, KEYS, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 1);

        for (Duration pause : PAUSES) {
            CLUSTER.log("freezing the router (SIGSTOP) for " + pause.toMillis() + " ms");
            CLUSTER.processes().pauseRouter();
            try {
                resumer.schedule(() -> CLUSTER.processes().resumeRouter(), pause.toMillis(), TimeUnit.MILLISECONDS);
                await("the router frozen for " + pause.toMillis() + " ms").atMost(pause.plusSeconds(10))
                        .pollInterval(Duration.ofMillis(50)).until(() -> !CLUSTER.processes().isRouterPaused());
            } finally {
                if (CLUSTER.processes().isRouterPaused()) {
                    CLUSTER.processes().resumeRouter();
                }
            }
            CLUSTER.log("the router runs again (SIGCONT)");
            await("every host stays LIVE after a router pause of " + pause.toMillis() + " ms")
                    .during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                    .until(() -> router.liveHostIds().equals(hosts));
        }

        Map<String, Long> counts = CLUSTER.finalCounts(id, SINK, Duration.ofSeconds(150));
        assertThat(router.recoveries()).as("no recovery: no host failed").isEmpty();
        assertThat(router.liveHostIds()).isEqualTo(hosts);
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(COUNT, KEYS));
        assertThat(router.delete(id)).isTrue();
    }
}
