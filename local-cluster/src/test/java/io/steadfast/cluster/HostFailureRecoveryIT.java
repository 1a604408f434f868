package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.CheckpointView;
import io.steadfast.cluster.client.CheckpointsView;
import io.steadfast.cluster.client.RecoveryView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TaskView;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);

    private static ClusterProcesses processes;
    private static ClusterStartup startup;
    private static RouterClient router;

    @BeforeAll
    static void startCheckpointServiceRouterAndThreeHosts() {
        RepoLayout layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = layout.missingJars(List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST));
        assumeThat(missing)
                .as("Skipping the recovery test: service jars %s are not built; run %s from %s",
                        missing, RepoLayout.BUILD_COMMAND, layout.root())
                .isEmpty();

        processes = new ClusterProcesses(layout, layout.e2eRunDir("recovery"));
        startup = new ClusterStartup(processes, STARTUP_TIMEOUT, line -> System.out.println("[e2e] " + line));
        startup.startCheckpointServiceOnFreePort();
        router = startup.startRouterOnFreePort();
        startup.startHosts(router, HOSTS);
    }

    @AfterAll
    static void stopCluster() {
        if (processes != null) {
            processes.close();
            System.out.println("[e2e] logs in " + processes.runDir());
        }
    }

    /** Earlier tests killed hosts: start fresh ones (new ids) until three run again. */
    @BeforeEach
    void threeLiveHosts() {
        while (processes.liveHostIds().size() < HOSTS) {
            startup.startHost(router, processes.nextHostId());
        }
    }

    @Test
    void recoversFromOneHostKilledMidStreamWithExactCountsPerKey() {
        int count = 600_000;
        TopologyId id = router.deploy(wordCount("e2e-one-kill", count, RATE_PER_SECOND)).id();
        awaitCompletedCheckpoints(id, 2);

        HostId victim = killHostRunningTasks(id);
        RecoveryView recovery = awaitRecovered(id, victim);
        assertThat(recovery.restoredFrom()).as("restored from a completed checkpoint").isNotNull();
        assertThat(recovery.detectionCause()).as("a peer's dropped connection, confirmed by a failed probe, beat"
                + " the heartbeat timeout").isEqualTo("DATA_PLANE_DISCONNECT");

        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(LocalClusterIT.expectedCounts(count, KEYS))
                .containsExactlyInAnyOrderEntriesOf(referenceCounts("e2e-one-kill-reference", count));
        assertThat(router.delete(id)).isTrue();
    }

    @Test
    void recoversFromTwoHostKillsInOneRunWithExactCountsPerKey() {
        int count = 800_000;
        TopologyId id = router.deploy(wordCount("e2e-two-kills", count, RATE_PER_SECOND)).id();
        awaitCompletedCheckpoints(id, 2);

        HostId first = killHostRunningTasks(id);
        RecoveryView firstRecovery = awaitRecovered(id, first);
        long restoredFrom = firstRecovery.restoredFrom() == null ? 0 : firstRecovery.restoredFrom();
        long afterRecovery = router.checkpoints(id).latestCompletedCheckpoint()
                .map(CheckpointView::checkpointId).orElse(restoredFrom);
        awaitCheckpointCompletedAfter(id, Math.max(restoredFrom, afterRecovery));

        HostId second = killHostRunningTasks(id);
        assertThat(second).isNotEqualTo(first);
        awaitRecovered(id, second);

        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(LocalClusterIT.expectedCounts(count, KEYS))
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
        awaitCompletedCheckpoints(id, 2);
        HostId victim = hostRunningTasks(id);
        System.out.println("[e2e] freezing " + victim + " (SIGSTOP)");
        processes.pauseHost(victim);
        try {
            await("recovery of %s away from the frozen %s".formatted(id, victim))
                    .atMost(RECOVERY_TIMEOUT).pollInterval(POLL).failFast(() -> assertNoFailedRecovery(id))
                    .until(() -> router.topology(id).tasks().stream().noneMatch(task -> victim.equals(task.host())));
        } finally {
            processes.resumeHost(victim);
            System.out.println("[e2e] " + victim + " runs again (SIGCONT)");
        }

        await("%s LIVE again without tasks of %s".formatted(victim, id)).atMost(Duration.ofSeconds(30))
                .pollInterval(POLL).until(() -> router.hosts().stream().filter(h -> h.hostId().equals(victim))
                        .anyMatch(h -> h.isLive() && !h.tasks().toString().contains(id.value() + "/")));
        assertThat(processes.host(victim).orElseThrow().logContains("fenced itself")).as("the resumed host stopped its"
                + " tasks itself").isTrue();
        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(LocalClusterIT.expectedCounts(count, KEYS));
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
        awaitCompletedCheckpoints(id, 2);
        HostId victim = hostRunningTasks(id);
        URI stall = URI.create(router.hosts().stream().filter(h -> h.hostId().equals(victim)).findFirst()
                .orElseThrow().controlUrl()).resolve("/api/v1/fault/stall-data-plane?for=8s");
        System.out.println("[e2e] hanging the data plane's IO thread of " + victim + " for 8 s");
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(stall)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as("fault injection answer: %s", answer.body()).isEqualTo(202);

        RecoveryView recovery = awaitRecovered(id, victim);
        assertThat(recovery.detectionCause()).as("its heartbeats stopped; nothing else showed the hang")
                .isEqualTo("HEARTBEAT_TIMEOUT");
        await("%s LIVE again without tasks of %s".formatted(victim, id)).atMost(Duration.ofSeconds(30))
                .pollInterval(POLL).until(() -> router.hosts().stream().filter(h -> h.hostId().equals(victim))
                        .anyMatch(h -> h.isLive() && !h.tasks().toString().contains(id.value() + "/")));
        ServiceProcess host = processes.host(victim).orElseThrow();
        assertThat(host.logContains("stops heartbeating")).as("the host saw its IO thread stuck").isTrue();
        assertThat(host.logContains("fenced itself")).as("the host stopped its old tasks itself").isTrue();
        assertThat(finalCounts(id)).containsExactlyInAnyOrderEntriesOf(LocalClusterIT.expectedCounts(count, KEYS));
        assertThat(router.delete(id)).isTrue();
    }

    private static void awaitCompletedCheckpoints(TopologyId id, int completed) {
        await("%d completed checkpoints of %s".formatted(completed, id))
                .atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .failFast(() -> assertStillRunningWithoutFailedRecovery(id, "the topology finished before the kill; raise its count"))
                .until(() -> router.checkpoints(id).completedCount() >= completed);
    }

    private static void awaitCheckpointCompletedAfter(TopologyId id, long checkpointId) {
        await("a checkpoint of %s completed after %d".formatted(id, checkpointId))
                .atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .failFast(() -> assertStillRunningWithoutFailedRecovery(id, "the topology finished before the second kill; raise its count"))
                .until(() -> router.checkpoints(id).latestCompletedCheckpoint()
                        .filter(c -> c.checkpointId() > checkpointId).isPresent());
    }

    /** SIGKILLs a live host that runs an unfinished task of the topology, preferring one with a stateful count task. */
    private static HostId killHostRunningTasks(TopologyId id) {
        HostId victim = hostRunningTasks(id);
        TopologyView view = router.topology(id);
        CheckpointsView checkpoints = router.checkpoints(id);
        System.out.println("[e2e] killing " + victim + " (SIGKILL); tasks there: " + view.tasksOn(victim)
                + "; latest completed checkpoint " + checkpoints.latestCompletedCheckpoint().map(CheckpointView::checkpointId).orElse(null));
        processes.killHost(victim);
        return victim;
    }

    /** A live host that runs an unfinished task of the topology, preferring one with a stateful count task. */
    private static HostId hostRunningTasks(TopologyId id) {
        TopologyView view = router.topology(id);
        assertThat(view.allTasksFinished()).as("the topology is still running when the host is killed").isFalse();
        List<HostId> live = processes.liveHostIds();
        List<TaskView> running = view.tasks().stream()
                .filter(task -> !task.isFinished() && task.host() != null && live.contains(task.host())).toList();
        HostId victim = running.stream().filter(task -> task.task().contains("/count#")).map(TaskView::host).findFirst()
                .or(() -> running.stream().map(TaskView::host).findFirst())
                .orElseThrow(() -> new AssertionError("no live host runs a task of " + id + ": " + view.tasks()));
        return victim;
    }

    private static RecoveryView awaitRecovered(TopologyId id, HostId failed) {
        AtomicReference<Optional<RecoveryView>> last = new AtomicReference<>(Optional.empty());
        await("recovery of %s after %s was killed".formatted(id, failed))
                .atMost(RECOVERY_TIMEOUT).pollInterval(POLL)
                .failFast(() -> assertNoFailedRecovery(id))
                .until(() -> {
                    last.set(router.recoveries().stream()
                            .filter(r -> r.topology().equals(id) && r.failedHost().equals(failed)).findFirst());
                    return last.get().map(RecoveryView::isRecovered).orElse(false);
                });
        RecoveryView recovery = last.get().orElseThrow();
        System.out.println("[e2e] " + RecoveryLine.format(recovery));
        return recovery;
    }

    private static Map<String, Long> finalCounts(TopologyId id) {
        return new TopologyOutcomes(router).finalCounts(id, SINK, FINISH_TIMEOUT);
    }

    private static void assertStillRunningWithoutFailedRecovery(TopologyId id, String finishedMessage) {
        assertNoFailedRecovery(id);
        if (router.topology(id).allTasksFinished()) {
            throw new AssertionError(finishedMessage);
        }
    }

    /** Fails at once if a recovery of the topology FAILED: the router retries it only after the next detected failure. */
    private static void assertNoFailedRecovery(TopologyId id) {
        new TopologyOutcomes(router).assertNoFailedRecovery(id);
    }

    /** A failure-free run of the same word count, unpaced (pacing never changes what the generator emits). */
    private static Map<String, Long> referenceCounts(String referenceId, int count) {
        return new TopologyOutcomes(router).referenceCounts(wordCount(referenceId, count, 0), SINK, FINISH_TIMEOUT);
    }

    private static String wordCount(String id, int count, int ratePerSecond) {
        return """
                {"id": "%s",
                 "operators": [
                   {"id": "source", "type": "generator", "parallelism": 2,
                    "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                   {"id": "count", "type": "keyed-count", "parallelism": 2,
                    "inputs": [{"from": "source", "partitioning": "key"}]},
                   {"id": "sink", "type": "latest-value-sink", "parallelism": 2,
                    "inputs": [{"from": "count", "partitioning": "key"}]}
                 ]}
                """.formatted(id, count, KEYS, ratePerSecond);
    }
}
