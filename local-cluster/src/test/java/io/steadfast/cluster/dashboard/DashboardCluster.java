package io.steadfast.cluster.dashboard;

import static org.assertj.core.api.Assumptions.assumeThat;

import io.steadfast.cluster.ClusterStartup;
import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.Service;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.FreePort;
import io.steadfast.runtime.plan.HostId;
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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A local cluster of real processes with the dashboard in front of it, for a browser test class: registered as a
 * static {@code @RegisterExtension} field, it starts a checkpoint-service, a router, the hosts, any standby hosts and
 * the dashboard (whose kill buttons are on: {@code ClusterProcesses#startDashboard} enables its fault injection, as
 * the hosts have theirs) before the class's tests, and stops them after. The class is skipped when the service jars
 * are not built. Progress lines go to standard output and to {@code e2e-progress.log} beside the processes' logs in
 * {@code local-cluster/target/e2e-run/<name>-<timestamp>/}.
 */
final class DashboardCluster implements BeforeAllCallback, AfterAllCallback {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(150);
    private static final List<Service> SERVICES = List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST,
            Service.DASHBOARD);

    private final String name;
    private final int hosts;
    private final int standbyHosts;
    private RepoLayout layout;
    private ClusterProcesses processes;
    private RouterClient router;
    private URI dashboardUrl;
    private Path progressLog;

    private DashboardCluster(String name, int hosts, int standbyHosts) {
        this.name = name;
        this.hosts = hosts;
        this.standbyHosts = standbyHosts;
    }

    /**
     * {@code hosts} hosts plus {@code standbyHosts} started after them and kept free of tasks by the router
     * ({@code steadfast.router.standby-hosts}) for lost tasks to be recovered onto; logs in
     * {@code e2e-run/<name>-<timestamp>/}.
     */
    static DashboardCluster withHosts(String name, int hosts, int standbyHosts) {
        return new DashboardCluster(name, hosts, standbyHosts);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = layout.missingJars(SERVICES);
        assumeThat(missing).as("Skipping %s: service jars %s are not built; run %s from %s",
                context.getDisplayName(), missing, RepoLayout.BUILD_COMMAND, layout.root()).isEmpty();
        processes = new ClusterProcesses(layout, layout.e2eRunDir(name));
        progressLog = processes.runDir().resolve("e2e-progress.log");
        Instant start = Instant.now();
        ClusterStartup startup = new ClusterStartup(processes, STARTUP_TIMEOUT, this::log);
        startup.startCheckpointServiceOnFreePort();
        List<String> settings = new ArrayList<>();
        if (standbyHosts > 0) {
            settings.add("--steadfast.router.standby-hosts=" + standbyHosts);
        }
        router = startup.startRouterOnFreePort(settings);
        startup.startHosts(router, hosts);
        startup.startStandbyHosts(router, hosts, standbyHosts);
        int port = FreePort.pick();
        startup.startDashboard(port);
        dashboardUrl = URI.create("http://127.0.0.1:" + port + "/");
        log("cluster with " + hosts + " hosts, " + standbyHosts + " standby and the dashboard at " + dashboardUrl
                + " up in " + Duration.between(start, Instant.now()).toSeconds() + " s");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (processes != null) {
            processes.close();
            log("logs in " + processes.runDir());
        }
    }

    RouterClient router() {
        return router;
    }

    ClusterProcesses processes() {
        return processes;
    }

    /** The dashboard's page, {@code http://127.0.0.1:<port>/}. */
    URI dashboardUrl() {
        return dashboardUrl;
    }

    /** The {@code local-cluster} module directory, under which {@code target/} holds the test artifacts. */
    Path moduleDir() {
        return layout.root().resolve("local-cluster");
    }

    /** Whether the host's process is still running. */
    boolean isRunning(HostId host) {
        return processes.host(host).map(process -> process.isAlive()).orElse(false);
    }

    /** A progress line: {@code [e2e] line} on standard output and in the run directory's {@code e2e-progress.log}. */
    void log(String line) {
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
