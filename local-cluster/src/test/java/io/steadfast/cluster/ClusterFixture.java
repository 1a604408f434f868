package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.FreePort;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A local cluster of real processes for an end-to-end test class: registered as a static
 * {@code @RegisterExtension} field, it starts a checkpoint-service, a router, the hosts, any voters and optionally
 * the dashboard before the class's {@code @BeforeAll} methods (the class is skipped if the service jars are not
 * built) and stops them after it. It holds the waits the tests share (checkpoints, recoveries, final results) and
 * writes every progress line as {@code [e2e] ...} to standard output and to {@code e2e-progress.log} in the run
 * directory, beside the processes' logs under {@code local-cluster/target/e2e-run/<name>-<timestamp>/}.
 */
public final class ClusterFixture implements BeforeAllCallback, AfterAllCallback {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration CHECKPOINT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String name;
    private final int hosts;
    private final int standbyHosts;
    private final int voters;
    private final int routers;
    private final List<String> replicaSettings;
    private final boolean dashboard;
    private RepoLayout layout;
    private URI dashboardUrl;
    private ClusterProcesses processes;
    private ClusterStartup startup;
    private RouterClient router;
    private TopologyOutcomes outcomes;
    private Path progressLog;
    private List<String> routerSettings = List.of();

    private ClusterFixture(String name, int hosts, int standbyHosts, int voters, int routers,
                           List<String> replicaSettings, boolean dashboard) {
        this.name = name;
        this.hosts = hosts;
        this.standbyHosts = standbyHosts;
        this.voters = voters;
        this.routers = routers;
        this.replicaSettings = List.copyOf(replicaSettings);
        this.dashboard = dashboard;
    }

    /** A cluster of {@code hosts} hosts whose logs go to {@code e2e-run/<name>-<timestamp>/}. */
    public static ClusterFixture withHosts(String name, int hosts) {
        return new ClusterFixture(name, hosts, 0, 0, 1, List.of(), false);
    }

    /**
     * The same cluster plus {@code count} hosts started after the others and kept free of tasks by the router
     * ({@code steadfast.router.standby-hosts}), for lost tasks to be recovered onto.
     */
    public ClusterFixture andStandbyHosts(int count) {
        return new ClusterFixture(name, hosts, count, voters, routers, replicaSettings, dashboard);
    }

    /**
     * The same cluster with {@code count} router replicas on free ports, started first to last, electing their
     * leader through a lease in the embedded store: the first leads.
     */
    ClusterFixture andRouters(int count) {
        return andRouters(count, List.of("--steadfast.router.leader-election.mode=store"));
    }

    /** As {@link #andRouters(int)}, the replicas electing their leader as {@code electionSettings} say. */
    ClusterFixture andRouters(int count, List<String> electionSettings) {
        return new ClusterFixture(name, hosts, standbyHosts, voters, count, electionSettings, dashboard);
    }

    /** The same cluster plus {@code count} voter-services, {@code voter-1..n}, started after the hosts. */
    public ClusterFixture andVoters(int count) {
        return new ClusterFixture(name, hosts, standbyHosts, count, routers, replicaSettings, dashboard);
    }

    /**
     * The same cluster plus the dashboard, started last on a free port, its kill buttons on (as
     * {@link ClusterProcesses#startDashboard} starts it).
     */
    public ClusterFixture andDashboard() {
        return new ClusterFixture(name, hosts, standbyHosts, voters, routers, replicaSettings, true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = layout.missingJars(services());
        assumeThat(missing).as("Skipping %s: service jars %s are not built; run %s from %s",
                context.getDisplayName(), missing, RepoLayout.BUILD_COMMAND, layout.root()).isEmpty();
        processes = new ClusterProcesses(layout, layout.e2eRunDir(name));
        progressLog = processes.runDir().resolve("e2e-progress.log");
        startup = new ClusterStartup(processes, STARTUP_TIMEOUT, this::log);
        startup.startCheckpointServiceOnFreePort();
        // The router's port must be known before the hosts start, so it cannot be 0: a free port is picked just
        // before the router starts, and the router is restarted on another port if that one was taken meanwhile.
        List<String> settings = new ArrayList<>();
        if (standbyHosts > 0) {
            settings.add("--steadfast.router.standby-hosts=" + standbyHosts);
        }
        if (routers > 1) {
            settings.addAll(replicaSettings);
        }
        for (int replica = 1; replica <= routers; replica++) {
            router = startup.startRouterOnFreePort(settings);
        }
        routerSettings = List.copyOf(settings);
        startup.startHosts(router, hosts);
        if (standbyHosts > 0) {
            startup.startStandbyHosts(router, hosts, standbyHosts);
        }
        startup.startVoters(router, voters);
        if (dashboard) {
            int port = FreePort.pick();
            startup.startDashboard(port);
            dashboardUrl = URI.create("http://127.0.0.1:" + port + "/");
        }
        outcomes = new TopologyOutcomes(router, this::log);
    }

    private List<Service> services() {
        List<Service> services = new ArrayList<>(List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST));
        if (voters > 0) {
            services.add(Service.VOTER);
        }
        if (dashboard) {
            services.add(Service.DASHBOARD);
        }
        return services;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (processes != null) {
            processes.close();
            log("logs in " + processes.runDir());
        }
    }

    public RouterClient router() {
        return router;
    }

    public ClusterProcesses processes() {
        return processes;
    }

    /** The dashboard's page, {@code http://127.0.0.1:<port>/}, if the cluster has one ({@link #andDashboard()}). */
    public URI dashboardUrl() {
        if (dashboardUrl == null) {
            throw new IllegalStateException("This cluster has no dashboard: make it with andDashboard()");
        }
        return dashboardUrl;
    }

    /** The repository's root directory; {@code local-cluster/target/} under it holds the test artifacts. */
    public Path repoRoot() {
        return layout.root();
    }

    TopologyOutcomes outcomes() {
        return outcomes;
    }

    /**
     * Starts router replica {@code index} again on its port (after it died), with the settings it had; it stands by
     * if another replica leads.
     */
    RouterClient restartRouterReplica(int index) {
        router = startup.startRouter(processes.routerUrls().get(index).getPort(), routerSettings);
        outcomes = new TopologyOutcomes(router, this::log);
        return router;
    }

    /** Kills the router (SIGKILL) and starts a new one on the same port with the same store; the new one's client. */
    RouterClient restartRouter() {
        int port = processes.routerUrl().getPort();
        processes.killRouter();
        router = startup.startRouter(port);
        outcomes = new TopologyOutcomes(router, this::log);
        return router;
    }

    /** Starts fresh voters (new ids) until {@code count} voter processes run, each LIVE in the router. */
    void startVotersUntil(int count) {
        while (processes.liveHostIds(HostKind.VOTER).size() < count) {
            startup.startHost(router, processes.nextHostId(HostKind.VOTER), HostKind.VOTER);
        }
    }

    /** Starts fresh PE hosts (new ids) until {@code count} host processes run, each LIVE in the router. */
    void startHostsUntil(int count) {
        while (processes.liveHostIds(HostKind.PE).size() < count) {
            startup.startHost(router, processes.nextHostId());
        }
    }

    /** Waits until the router lists every given host as LIVE. */
    void awaitHostsLive(List<HostId> ids) {
        startup.awaitHostsLive(router, Set.copyOf(ids));
    }

    /**
     * Waits until {@code completed} checkpoints of the topology COMPLETED, failing at once if the topology finished
     * first or one of its recoveries FAILED; the id of the latest completed one.
     */
    long awaitCompletedCheckpoints(TopologyId id, int completed) {
        AtomicReference<TopologyCheckpoints> last = new AtomicReference<>();
        await("%d completed checkpoints of %s".formatted(completed, id)).atMost(CHECKPOINT_TIMEOUT).pollInterval(POLL)
                .failFast(() -> assertStillRunningWithoutFailedRecovery(id, "the topology finished before " + completed
                        + " checkpoints completed; raise its count"))
                .until(() -> {
                    last.set(router.checkpoints(id));
                    return last.get().completedCount() >= completed;
                });
        return last.get().latestCompletedCheckpoint().orElseThrow().checkpointId().value();
    }

    /** Waits for a COMPLETED checkpoint with an id above {@code checkpointId}, failing at once as above. */
    CheckpointSummary awaitCheckpointCompletedAfter(TopologyId id, long checkpointId) {
        AtomicReference<Optional<CheckpointSummary>> last = new AtomicReference<>(Optional.empty());
        await("a checkpoint of %s completed after %d".formatted(id, checkpointId)).atMost(CHECKPOINT_TIMEOUT)
                .pollInterval(POLL)
                .failFast(() -> assertStillRunningWithoutFailedRecovery(id, "the topology finished before a checkpoint"
                        + " completed after " + checkpointId + "; raise its count"))
                .until(() -> {
                    last.set(router.checkpoints(id).latestCompletedCheckpoint()
                            .filter(c -> c.checkpointId().value() > checkpointId));
                    return last.get().isPresent();
                });
        return last.get().orElseThrow();
    }

    /**
     * Waits until the recovery of the topology from the failure of {@code failed} RECOVERED, failing at once if a
     * recovery of it FAILED (the router retries one only after the next detected failure); prints and returns it.
     */
    RecoveryView awaitRecovered(TopologyId id, HostId failed, Duration timeout) {
        AtomicReference<Optional<RecoveryView>> last = new AtomicReference<>(Optional.empty());
        await("recovery of %s after %s failed".formatted(id, failed)).atMost(timeout).pollInterval(POLL)
                .failFast(() -> outcomes.assertNoFailedRecovery(id))
                .until(() -> {
                    last.set(router.recoveries().stream()
                            .filter(r -> r.topology().equals(id) && r.detection().failedHost().equals(failed))
                            .findFirst());
                    return last.get().map(RecoveryView::isRecovered).orElse(false);
                });
        return outcomes.describe(last.get().orElseThrow());
    }

    /** Waits until the host is LIVE in the router again and runs no task of the topology. */
    void awaitLiveWithoutTasksOf(HostId host, TopologyId id) {
        await("%s LIVE again without tasks of %s".formatted(host, id)).atMost(Duration.ofSeconds(30))
                .pollInterval(POLL).until(() -> router.hosts().stream().filter(h -> h.hostId().equals(host))
                        .anyMatch(h -> h.isLive() && !h.tasks().toString().contains(id.value() + "/")));
    }

    /** Waits until every task FINISHED (failing fast on a FAILED task or recovery); the sink's value per key. */
    Map<String, Long> finalCounts(TopologyId id, OperatorId sink, Duration timeout) {
        return outcomes.finalCounts(id, sink, timeout);
    }

    /** As {@link #finalCounts}, for a topology whose tasks are meant to fail and be restarted in place. */
    public Map<String, Long> finalCountsThroughRestarts(TopologyId id, OperatorId sink, Duration timeout) {
        return outcomes.finalCountsThroughRestarts(id, sink, timeout);
    }

    /** A live host that runs an unfinished task of the topology, preferring one with a stateful count task. */
    HostId hostRunningTasks(TopologyId id) {
        TopologyDetail view = router.topology(id);
        assertThat(view.allTasksFinished()).as("the topology is still running when a host is hit").isFalse();
        List<HostId> live = processes.liveHostIds();
        List<TaskState> running = view.tasks().stream()
                .filter(task -> !task.isFinished() && live.contains(task.host())).toList();
        return running.stream().filter(task -> task.task().operator().value().equals("count")).map(TaskState::host)
                .findFirst().or(() -> running.stream().map(TaskState::host).findFirst())
                .orElseThrow(() -> new AssertionError("no live host runs a task of " + id + ": " + view.tasks()));
    }

    /** SIGKILLs {@link #hostRunningTasks the host running tasks of the topology}; its id. */
    HostId killHostRunningTasks(TopologyId id) {
        HostId victim = hostRunningTasks(id);
        log("killing " + victim + " (SIGKILL); tasks there: " + TaskHosts.tasksOn(router.topology(id), victim)
                + "; latest completed checkpoint " + router.checkpoints(id).latestCompletedCheckpoint()
                .map(CheckpointSummary::checkpointId).orElse(null));
        processes.killHost(victim);
        return victim;
    }

    /** The records the tasks of a sink operator have taken in so far, summed. */
    long sinkRecordsIn(TopologyId id, OperatorId sink) {
        return router.topology(id).tasks().stream().filter(task -> task.task().operator().equals(sink))
                .mapToLong(TaskState::recordsIn).sum();
    }

    private void assertStillRunningWithoutFailedRecovery(TopologyId id, String finishedMessage) {
        outcomes.assertNoFailedRecovery(id);
        if (router.topology(id).allTasksFinished()) {
            throw new AssertionError(finishedMessage);
        }
    }

    /** A progress line: {@code [e2e] line} on standard output and in the run directory's {@code e2e-progress.log}. */
    public void log(String line) {
        String stamped = "[e2e] " + line;
        System.out.println(stamped);
        if (progressLog != null) {
            try {
                Files.createDirectories(progressLog.getParent());
                Files.writeString(progressLog, Instant.now() + " " + stamped + System.lineSeparator(),
                        StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not write " + progressLog, e);
            }
        }
    }
}
