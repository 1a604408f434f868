package io.steadfast.cluster.process;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.Service;
import io.steadfast.runtime.plan.HostId;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The processes of one local cluster: a router, any number of hosts and optionally a dashboard, each a
 * {@link ServiceProcess} logging to {@code <runDir>/<name>.log}. Tests and chaos tests start, stop and kill
 * single hosts through it. Owned by one thread, except {@link #close()}, which a shutdown hook may call.
 */
public final class ClusterProcesses implements AutoCloseable {

    /** How long a stopping service gets before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private static final List<String> ROUTER_JVM_ARGS = List.of("-Xmx512m");
    /**
     * Hosts map their heap with transparent huge pages: a memory monitor that samples page access bits (such as
     * DAMON, which runs on our CI machines every 500 ms) otherwise stalls a busy host for tens of milliseconds.
     * The flag is harmless where THP is off.
     */
    private static final List<String> HOST_JVM_ARGS = List.of("-Xmx1g", "-XX:+UseTransparentHugePages");
    private static final List<String> DASHBOARD_JVM_ARGS = List.of("-Xmx256m");

    private final RepoLayout layout;
    private final Path runDir;
    private ServiceProcess router;
    private URI routerUrl;
    private ServiceProcess dashboard;
    private final Map<HostId, ServiceProcess> hosts = new LinkedHashMap<>();

    public ClusterProcesses(RepoLayout layout, Path runDir) {
        this.layout = layout;
        this.runDir = runDir.toAbsolutePath().normalize();
    }

    public Path runDir() {
        return runDir;
    }

    /**
     * Starts the router on {@code port} (bound to 127.0.0.1), replacing a previous router process that has
     * already ended (as after a failed bind).
     */
    public synchronized ServiceProcess startRouter(int port) {
        if (router != null && router.isAlive()) {
            throw new IllegalStateException("The router is already running: " + router.describe());
        }
        router = ServiceProcess.start(new ProcessSpec("router", layout.jar(Service.ROUTER), ROUTER_JVM_ARGS,
                List.of("--server.port=" + port, "--server.address=127.0.0.1"), logFile("router")));
        routerUrl = URI.create("http://127.0.0.1:" + port);
        return router;
    }

    /** Starts a host that registers with the running router; its HTTP and data ports are chosen by the OS. */
    public synchronized ServiceProcess startHost(HostId id) {
        if (routerUrl == null) {
            throw new IllegalStateException("Start the router before host " + id + ": hosts need its URL");
        }
        ServiceProcess running = hosts.get(id);
        if (running != null && running.isAlive()) {
            throw new IllegalStateException("Host " + id + " is already running: " + running.describe());
        }
        ServiceProcess host = ServiceProcess.start(new ProcessSpec(id.value(), layout.jar(Service.HOST), HOST_JVM_ARGS,
                List.of("--server.port=0",
                        "--steadfast.host.id=" + id.value(),
                        "--steadfast.host.router-url=" + routerUrl,
                        "--steadfast.host.data.bind-address=tcp://127.0.0.1:*"),
                logFile(id.value())));
        hosts.put(id, host);
        return host;
    }

    /** Starts the dashboard on {@code port} (bound to 127.0.0.1), pointed at the router. */
    public synchronized ServiceProcess startDashboard(int port) {
        if (routerUrl == null) {
            throw new IllegalStateException("Start the router before the dashboard: it needs the router's URL");
        }
        dashboard = ServiceProcess.start(new ProcessSpec("dashboard", layout.jar(Service.DASHBOARD), DASHBOARD_JVM_ARGS,
                List.of("--server.port=" + port, "--server.address=127.0.0.1",
                        "--steadfast.dashboard.router-url=" + routerUrl),
                logFile("dashboard")));
        return dashboard;
    }

    /** Kills a host at once (SIGKILL), as a crash would; it can be started again with {@link #startHost}. */
    public synchronized void killHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet())).kill();
    }

    /** Stops a host gracefully (SIGTERM, then SIGKILL after {@link #STOP_GRACE}). */
    public synchronized void stopHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet()))
                .stop(STOP_GRACE);
    }

    public synchronized Optional<ServiceProcess> host(HostId id) {
        return Optional.ofNullable(hosts.get(id));
    }

    public synchronized List<HostId> hostIds() {
        return List.copyOf(hosts.keySet());
    }

    public synchronized Optional<ServiceProcess> router() {
        return Optional.ofNullable(router);
    }

    public synchronized Optional<ServiceProcess> dashboard() {
        return Optional.ofNullable(dashboard);
    }

    /** The router's base URL, once it has been started. */
    public synchronized URI routerUrl() {
        if (routerUrl == null) {
            throw new IllegalStateException("The router has not been started");
        }
        return routerUrl;
    }

    /** Every process started and not replaced: router, hosts, dashboard. */
    public synchronized List<ServiceProcess> all() {
        List<ServiceProcess> all = new ArrayList<>();
        if (router != null) {
            all.add(router);
        }
        all.addAll(hosts.values());
        if (dashboard != null) {
            all.add(dashboard);
        }
        return all;
    }

    /** The first process that has ended, if any. */
    public synchronized Optional<ServiceProcess> firstExited() {
        return all().stream().filter(p -> !p.isAlive()).findFirst();
    }

    /**
     * Stops every process: all are asked to stop at once, each gets until a common deadline, then the rest
     * are killed. Safe to call more than once.
     */
    @Override
    public synchronized void close() {
        List<ServiceProcess> all = all();
        all.forEach(ServiceProcess::requestStop);
        Instant deadline = Instant.now().plus(STOP_GRACE);
        for (ServiceProcess process : all) {
            Duration left = Duration.between(Instant.now(), deadline);
            if (!process.awaitExit(left.isNegative() ? Duration.ZERO : left)) {
                process.kill();
            }
        }
    }

    private Path logFile(String name) {
        return runDir.resolve(name + ".log");
    }
}
