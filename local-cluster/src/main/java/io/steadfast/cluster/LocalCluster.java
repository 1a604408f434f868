package io.steadfast.cluster;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.OperatorJars;
import io.steadfast.cluster.process.FreePort;
import io.steadfast.cluster.process.LeftOverHosts;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.cluster.progress.ProgressTable;
import io.steadfast.cluster.progress.ResultsSummary;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import io.steadfast.cluster.progress.CheckpointLine;
import io.steadfast.cluster.progress.HostsLine;
import io.steadfast.cluster.progress.RecoveryChanges;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one-command local cluster: starts the checkpoint-service, router, hosts, voter-services and dashboard as
 * processes, deploys a topology, prints its progress, hosts, latest checkpoint and recoveries every second and its
 * results when every task is FINISHED. With {@code --replace-failed-hosts} (the default) the routers start the hosts
 * and voters themselves and replace one that fails by a fresh one of its kind
 * ({@code steadfast.router.scheduling.mode=local}); otherwise the launcher starts them and a dead one stays dead.
 * Ctrl-C (a shutdown hook) deletes the topology and stops every process, the hosts a killed router left running too
 * (found by the run directory on their command line, {@link ClusterProcesses#stopAll()}).
 * {@link LocalCommand} reads its options.
 */
public final class LocalCluster {

    private static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(1);
    private static final int SAMPLE_KEYS = 5;
    private static final DateTimeFormatter RUN_DIR_FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final LaunchOptions options;
    private final RepoLayout layout;
    private final PrintStream out;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Set<ServiceProcess> reportedExits = new HashSet<>();
    private final RecoveryChanges recoveryChanges = new RecoveryChanges();
    private volatile ClusterProcesses processes;
    private volatile RouterClient router;
    private volatile TopologyId deployed;

    LocalCluster(LaunchOptions options, RepoLayout layout, PrintStream out) {
        this.options = options;
        this.layout = layout;
        this.out = out;
    }

    /** Runs the cluster; returns only with --exit-when-finished (or on failure), with the exit code. */
    int run() {
        Set<Service> services = EnumSet.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST);
        if (options.voters() > 0) {
            services.add(Service.VOTER);
        }
        if (options.dashboard()) {
            services.add(Service.DASHBOARD);
        }
        layout.requireJars(services);
        TopologyFile topology = options.deploy() ? TopologyFile.read(resolveTopology(options.topology())) : null;

        Path runDir = options.runDir() != null ? options.runDir().toAbsolutePath()
                : layout.root().resolve(".steadfast").resolve("run").resolve(LocalDateTime.now().format(RUN_DIR_FORMAT));
        out.println("Steadfast local cluster; logs in " + runDir);
        OperatorJars operators = OperatorJars.givenOrDefault(options.operatorJars(), layout);
        out.println("Operator jars: " + operators.describe());
        processes = new ClusterProcesses(layout, runDir, operators);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "steadfast-local-cluster-shutdown"));

        ClusterStartup startup = new ClusterStartup(processes, options.startupTimeout(), line -> out.println("  " + line));
        URI checkpointUrl = startup.startCheckpointService(options.checkpointPort());
        List<Integer> routerPorts = routerPorts();
        List<String> routerSettings = new ArrayList<>(List.of("--steadfast.router.standby-hosts="
                + options.standbyHosts()));
        if (options.replaceFailedHosts()) {
            routerSettings.addAll(processes.routerStartedHosts(options.hosts() + options.standbyHosts(),
                    options.voters(), routerPorts.stream().map(port -> URI.create("http://127.0.0.1:" + port)).toList()));
        }
        router = startup.startRouters(routerPorts, routerSettings);
        if (options.replaceFailedHosts()) {
            startup.awaitRouterStartedHosts(router, HostKind.PE, options.hosts() + options.standbyHosts());
            startup.awaitRouterStartedHosts(router, HostKind.VOTER, options.voters());
        } else {
            startup.startHosts(router, options.hosts());
            startup.startStandbyHosts(router, options.hosts(), options.standbyHosts());
            startup.startVoters(router, options.voters());
        }
        if (options.dashboard()) {
            startup.startDashboard(options.dashboardPort());
            out.println("Dashboard: http://127.0.0.1:" + options.dashboardPort());
        }
        out.println("Router:    " + router.baseUrl() + "  (recoveries: " + router.baseUrl() + "/api/v1/recoveries)"
                + (options.routers() > 1 ? "; standby replicas: " + processes.routerUrls().subList(1,
                options.routers()) + " (GET /api/v1/leader says who leads)" : ""));
        out.println("Checkpoints: " + checkpointUrl + "  (store in " + processes.runDir().resolve(ClusterProcesses.CHECKPOINT_STORE_DIR) + ")");
        out.println("Kill a host to watch a recovery: ./steadfast kill-host host-2"
                + (options.voters() > 0 ? " (or a voter: voter-1)" : "")
                + (options.routerPort() == LaunchOptions.DEFAULT_ROUTER_PORT ? "" : " --router-port " + options.routerPort())
                + (options.replaceFailedHosts() ? "  (the router replaces a dead host by a fresh one)" : ""));

        if (topology == null) {
            out.println("Cluster running, nothing deployed (--no-deploy). Ctrl-C stops it.");
            idle();
            return 0;
        }
        return deployAndWatch(topology);
    }

    private int deployAndWatch(TopologyFile topology) {
        out.println("Deploying " + topology.path() + " ...");
        TopologySubmitted deployment = router.deploy(topology.json());
        deployed = deployment.id();
        out.println("Deployed topology " + deployment.id() + " (" + deployment.status() + ", "
                + deployment.tasks().size() + " tasks)");
        deployment.warnings().forEach(warning -> out.println("!! " + warning));
        Instant start = Instant.now();
        while (true) {
            sleep(PROGRESS_INTERVAL);
            reportExitedProcesses();
            reportRecoveries();
            TopologyDetail view;
            try {
                view = router.topology(deployment.id());
            } catch (RouterRequestException e) {
                out.println("  (no progress: " + e.getMessage() + ")");
                continue;
            }
            out.print(ProgressTable.format(view, Duration.between(start, Instant.now())));
            printHosts();
            printCheckpoint(deployment.id());
            if (view.anyTaskFailed()) {
                out.println("A task FAILED; see the host logs in " + processes.runDir());
                if (options.exitWhenFinished()) {
                    return 1;
                }
            }
            if (view.allTasksFinished()) {
                printResults(deployment.id(), topology.sinks());
                if (options.exitWhenFinished()) {
                    return 0;
                }
                out.println("Every task is FINISHED; the cluster keeps running. Ctrl-C stops it.");
                idle();
                return 0;
            }
        }
    }

    private void printResults(TopologyId id, List<OperatorId> sinks) {
        for (OperatorId sink : sinks) {
            try {
                out.print(ResultsSummary.format(router.results(id, sink, OptionalInt.empty()), SAMPLE_KEYS));
            } catch (RouterRequestException e) {
                out.println("No results for " + id + "/" + sink + ": " + e.getMessage());
            }
        }
    }

    private void printHosts() {
        try {
            out.print(HostsLine.format(router.hosts()));
        } catch (RouterRequestException e) {
            out.println("  (no hosts: " + e.getMessage() + ")");
        }
    }

    private void printCheckpoint(TopologyId id) {
        try {
            out.print(CheckpointLine.format(router.checkpoints(id)));
        } catch (RouterRequestException e) {
            out.println("  (no checkpoints: " + e.getMessage() + ")");
        }
    }

    /** Prints each recovery when it is first seen and again whenever its status changes. */
    private void reportRecoveries() {
        List<RecoveryView> recoveries;
        try {
            recoveries = router.recoveries();
        } catch (RouterRequestException e) {
            return; // the progress table reports an unreachable router
        }
        recoveryChanges.since(recoveries).forEach(recovery -> out.println(">> " + RecoveryLine.format(recovery)));
    }

    /** Waits for Ctrl-C, reporting any process that exits meanwhile and any recovery. */
    private void idle() {
        while (true) {
            sleep(PROGRESS_INTERVAL);
            reportExitedProcesses();
            reportRecoveries();
        }
    }

    /** Reports each process the launcher started that ended, once (the routers report their hosts in their logs). */
    private void reportExitedProcesses() {
        for (ServiceProcess process : processes.all()) {
            if (!process.isAlive() && reportedExits.add(process)) {
                out.println("!! " + process.describe() + "; log " + process.logFile());
                process.logExcerpt(10).forEach(line -> out.println("  | " + line));
            }
        }
    }

    /** The routers' ports: {@code --router-port}, then ports free now for the other replicas. */
    private List<Integer> routerPorts() {
        List<Integer> ports = new ArrayList<>(List.of(options.routerPort()));
        while (ports.size() < options.routers()) {
            int port = FreePort.pick();
            if (!ports.contains(port) && port != options.checkpointPort() && port != options.dashboardPort()) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** Deletes the topology and stops every process; runs once, from the shutdown hook. */
    private void stop() {
        if (!stopped.compareAndSet(false, true) || processes == null) {
            return;
        }
        out.println();
        out.println("Stopping the local cluster ...");
        TopologyId topology = deployed;
        if (topology != null && router != null) {
            try {
                router.delete(topology);
                out.println("  deleted topology " + topology);
            } catch (RouterRequestException e) {
                out.println("  could not delete topology " + topology + ": " + e.getMessage());
            }
        }
        List<ServiceProcess> all = new ArrayList<>(processes.all());
        List<LeftOverHosts.Stopped> leftOver = processes.stopAll();
        all.forEach(p -> out.println("  stopped " + p.describe()));
        leftOver.forEach(host -> out.println("  stopped " + host.describe() + ", which its router left running"));
        out.println("Logs: " + processes.runDir());
        out.flush();
    }

    private Path resolveTopology(Path path) {
        if (path.isAbsolute() || Files.exists(path)) {
            return path.toAbsolutePath().normalize();
        }
        Path inRepo = layout.root().resolve(path);
        if (Files.exists(inRepo)) {
            return inRepo;
        }
        throw new IllegalArgumentException("Topology file " + path + " not found (looked in "
                + Path.of("").toAbsolutePath() + " and " + layout.root() + "); examples are in " + layout.root().resolve("examples"));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
