package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Global recovery end to end with real processes: checkpoint-service, router and three hosts on loopback; a
 * rate-limited word count runs for 15-20 s with a checkpoint every second; host processes running its tasks are
 * killed with SIGKILL mid-stream; the router detects the failure and redeploys every task from the latest
 * completed checkpoint on the live hosts. Every key's final count must equal that of a failure-free run: the
 * generator's distribution, and a reference run of the same topology without pacing. One cluster serves the
 * class; before each test, fresh hosts (host-4, host-5, ...) replace the ones killed earlier.
 * Logs stay in {@code local-cluster/target/e2e-run/recovery-<timestamp>/}.
 */
@Timeout(420)
class HostFailureRecoveryIT {

    private static final int KEYS = 1000;
    private static final int RATE_PER_SECOND = 40_000;
    private static final int HOSTS = 3;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("recovery", HOSTS);

    private final RouterClient router = CLUSTER.router();
    private final ClusterProcesses processes = CLUSTER.processes();

    /** Earlier tests killed hosts: start fresh ones (new ids) until three run again. */
    @BeforeEach
    void threeLiveHosts() {
        CLUSTER.startHostsUntil(HOSTS);
    }

    @Test
    void recoversFromOneHostKilledMidStreamWithExactCountsPerKey() {
        int count = 600_000;
        TopologyId id = router.deploy(wordCount("e2e-one-kill", count, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);

        HostId victim = CLUSTER.killHostRunningTasks(id);
        RecoveryView recovery = CLUSTER.awaitRecovered(id, victim, RECOVERY_TIMEOUT);
        assertThat(recovery.restoration().restoredFrom()).as("restored from a completed checkpoint").isNotNull();
        assertThat(recovery.detection().detectionCause()).as("a peer's dropped connection, confirmed by a failed"
                + " probe, beat the heartbeat timeout").isEqualTo("DATA_PLANE_DISCONNECT");

        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(count, KEYS))
                .containsExactlyInAnyOrderEntriesOf(referenceCounts("e2e-one-kill-reference", count));
        assertThat(router.delete(id)).isTrue();
    }

    @Test
    void recoversFromTwoHostKillsInOneRunWithExactCountsPerKey() {
        int count = 800_000;
        TopologyId id = router.deploy(wordCount("e2e-two-kills", count, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);

        HostId first = CLUSTER.killHostRunningTasks(id);
        RecoveryView firstRecovery = CLUSTER.awaitRecovered(id, first, RECOVERY_TIMEOUT);
        CheckpointId firstRestoredFrom = firstRecovery.restoration().restoredFrom();
        long restoredFrom = firstRestoredFrom == null ? 0 : firstRestoredFrom.value();
        long afterRecovery = router.checkpoints(id).latestCompletedCheckpoint()
                .map(checkpoint -> checkpoint.checkpointId().value()).orElse(restoredFrom);
        CLUSTER.awaitCheckpointCompletedAfter(id, Math.max(restoredFrom, afterRecovery));

        HostId second = CLUSTER.killHostRunningTasks(id);
        assertThat(second).isNotEqualTo(first);
        CLUSTER.awaitRecovered(id, second, RECOVERY_TIMEOUT);

        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(count, KEYS))
                .containsExactlyInAnyOrderEntriesOf(referenceCounts("e2e-two-kills-reference", count));
        assertThat(router.recoveries()).filteredOn(r -> r.topology().equals(id)).hasSize(2)
                .allSatisfy(r -> assertThat(r.isRecovered()).isTrue());
        assertThat(router.delete(id)).isTrue();
    }

    /**
     * A host frozen (SIGSTOP) past the heartbeat timeout is declared dead and its topology recovered elsewhere;
     * when it runs again (SIGCONT) its old tasks must not run on unseen: it finds its lease lapsed (or the router
     * refuses its session) and stops them itself, rejoins LIVE as a new session without them, and the counts stay
     * exact.
     */
    @Test
    void aFrozenHostThatComesBackDropsItsStaleTasksAndTheCountsStayExact() {
        int count = 600_000;
        TopologyId id = router.deploy(wordCount("e2e-frozen", count, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);
        HostId victim = CLUSTER.hostRunningTasks(id);
        CLUSTER.log("freezing " + victim + " (SIGSTOP)");
        processes.pauseHost(victim);
        try {
            await("recovery of %s away from the frozen %s".formatted(id, victim))
                    .atMost(RECOVERY_TIMEOUT).pollInterval(POLL)
                    .failFast(() -> CLUSTER.outcomes().assertNoFailedRecovery(id))
                    .until(() -> router.topology(id).tasks().stream().noneMatch(task -> victim.equals(task.host())));
        } finally {
            processes.resumeHost(victim);
            CLUSTER.log(victim + " runs again (SIGCONT)");
        }

        CLUSTER.awaitLiveWithoutTasksOf(victim, id);
        assertThat(processes.host(victim).orElseThrow().logContains("fenced itself")).as("the resumed host stopped its"
                + " tasks itself").isTrue();
        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(count, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    /**
     * A host whose data-plane IO thread hangs (a gray failure: the process and its heartbeats go on, no channel of it
     * moves) stops heartbeating once the thread has been stuck past {@code steadfast.host.data.io-stall-timeout} (5 s),
     * so that the router declares it dead and recovers its tasks elsewhere; when the thread runs again the router
     * refuses its session, it stops its old tasks itself and rejoins empty; the counts stay exact.
     */
    @Test
    void aHostWhoseDataPlaneHangsWhileItHeartbeatsIsRecoveredElsewhereAndTheCountsStayExact() throws Exception {
        int count = 900_000;
        TopologyId id = router.deploy(wordCount("e2e-stuck-io", count, RATE_PER_SECOND)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);
        HostId victim = CLUSTER.hostRunningTasks(id);
        URI stall = router.hosts().stream().filter(h -> h.hostId().equals(victim)).findFirst()
                .orElseThrow().controlUrl().resolve("/api/v1/fault/stall-data-plane?for=8s");
        CLUSTER.log("hanging the data plane's IO thread of " + victim + " for 8 s");
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(stall)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as("fault injection answer: %s", answer.body()).isEqualTo(202);

        RecoveryView recovery = CLUSTER.awaitRecovered(id, victim, RECOVERY_TIMEOUT);
        assertThat(recovery.detection().detectionCause()).as("its heartbeats stopped; nothing else showed the hang")
                .isEqualTo("HEARTBEAT_TIMEOUT");
        CLUSTER.awaitLiveWithoutTasksOf(victim, id);
        ServiceProcess host = processes.host(victim).orElseThrow();
        assertThat(host.logContains("stops heartbeating")).as("the host saw its IO thread stuck").isTrue();
        assertThat(host.logContains("fenced itself")).as("the host stopped its old tasks itself").isTrue();
        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(count, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    private static Map<String, Long> finalCounts(TopologyId id) {
        return CLUSTER.finalCounts(id, SINK, FINISH_TIMEOUT);
    }

    /** A failure-free run of the same word count, unpaced (pacing never changes what the generator emits). */
    private static Map<String, Long> referenceCounts(String referenceId, int count) {
        return CLUSTER.outcomes().referenceCounts(wordCount(referenceId, count, 0), SINK, FINISH_TIMEOUT);
    }

    private static String wordCount(String id, int count, int ratePerSecond) {
        return TestTopologies.wordCount(id, count, KEYS, ratePerSecond);
    }
}
