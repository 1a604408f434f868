package io.steadfast.cluster.process;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.Service;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
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
 * The processes of one local cluster: a checkpoint-service, a router, any number of hosts of either kind (PE hosts,
 * and voters: voter-services, which run the vote tasks of N-version operators) and optionally a dashboard, each a
 * {@link ServiceProcess} logging to {@code <runDir>/<name>.log}. Start order matters: the checkpoint-service first
 * (router and hosts are told its URL), then the router (hosts are told its URL). Voters are hosts in every respect
 * here (started, listed, killed, paused and replaced the same way), only from another jar.
 * Hosts run with fault injection enabled ({@code POST /api/v1/fault/kill}): this is a demo and test cluster. The
 * router and the hosts of both kinds load the same {@link OperatorJars}, so that hosts run the types the router
 * validated.
 * Hosts the routers start ({@link #routerStartedHosts}) are the routers' children, not its own; {@link #stopAll()}
 * finds those a killed router left running by their {@link RunDirMarker}.
 * Tests and chaos tests start, stop and kill single hosts through it. Thread-safe (every method synchronises
 * on this object), so the launcher's shutdown hook may call {@link #close()}.
 */
public final class ClusterProcesses implements AutoCloseable {

    /** How long a stopping service gets before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /**
     * How long a host left behind by a router gets to stop before it is killed: shorter than {@link #STOP_GRACE},
     * as it comes after that wait, and the topology is deleted or its router gone, so it has nothing left to finish.
     */
    public static final Duration LEFT_OVER_GRACE = Duration.ofSeconds(5);

    /** Subdirectory of the run directory that holds the checkpoint-service's embedded store (H2 file). */
    public static final String CHECKPOINT_STORE_DIR = "checkpoint-store";
    /** The database of the router's own records (topologies, plans, placements, recoveries) in the embedded store. */
    public static final String ROUTER_DATABASE = "steadfast-router";

    private final RepoLayout layout;
    private final Path runDir;
    private final OperatorJars operators;
    private ServiceProcess checkpoint;
    private URI checkpointUrl;
    private URI storeUri;
    /** The router replicas, in start order; one leads when there are several (the others stand by). */
    private final List<ServiceProcess> routers = new ArrayList<>();
    private final List<URI> routerUrls = new ArrayList<>();
    private ServiceProcess dashboard;
    private final Map<HostId, ServiceProcess> hosts = new LinkedHashMap<>();
    private final Map<HostId, HostKind> kinds = new LinkedHashMap<>();

    /** A cluster whose router and hosts load the examples jar, if it is built ({@link OperatorJars#givenOrDefault}). */
    public ClusterProcesses(RepoLayout layout, Path runDir) {
        this(layout, runDir, OperatorJars.givenOrDefault(List.of(), layout));
    }

    /** A cluster whose router and hosts load {@code operators}. */
    public ClusterProcesses(RepoLayout layout, Path runDir, OperatorJars operators) {
        this.layout = layout;
        this.runDir = runDir.toAbsolutePath().normalize();
        this.operators = operators;
    }

    /** The operator jars the router and the hosts load. */
    public OperatorJars operatorJars() {
        return operators;
    }

    public Path runDir() {
        return runDir;
    }

    /**
     * Starts the checkpoint-service on {@code port} (bound to 127.0.0.1) with its embedded store in
     * {@code <runDir>/checkpoint-store}, replacing a previous process that has already ended (as after a failed bind).
     */
    public synchronized ServiceProcess startCheckpointService(int port) {
        return startCheckpointService(port, FreePort.pick());
    }

    /**
     * As {@link #startCheckpointService(int)}, with the embedded MongoDB-wire server on {@code storePort}: the
     * router keeps its own records there too (database {@value #ROUTER_DATABASE}), so a restarted router finds them.
     */
    public synchronized ServiceProcess startCheckpointService(int port, int storePort) {
        if (checkpoint != null && checkpoint.isAlive()) {
            throw new IllegalStateException("The checkpoint-service is already running: " + checkpoint.describe());
        }
        checkpoint = ServiceProcess.start(new ProcessSpec("checkpoint-service", layout.jar(Service.CHECKPOINT),
                ServiceJvmArgs.CHECKPOINT,
                List.of("--server.port=" + port, "--server.address=127.0.0.1",
                        "--steadfast.checkpoint.embedded.data-dir=" + runDir.resolve(CHECKPOINT_STORE_DIR),
                        "--steadfast.checkpoint.embedded.bind-address=127.0.0.1",
                        "--steadfast.checkpoint.embedded.port=" + storePort),
                logFile("checkpoint-service")));
        checkpointUrl = URI.create("http://127.0.0.1:" + port);
        storeUri = URI.create("mongodb://127.0.0.1:" + storePort + "/" + ROUTER_DATABASE);
        return checkpoint;
    }

    /** The MongoDB URI of the router's records (in the checkpoint-service's embedded store), once it started. */
    public synchronized URI routerStoreUri() {
        if (storeUri == null) {
            throw new IllegalStateException("The checkpoint-service has not been started");
        }
        return storeUri;
    }

    /**
     * Starts the router on {@code port} (bound to 127.0.0.1), pointed at the checkpoint-service, replacing a
     * previous router process on that port that has already ended (as after a failed bind or a kill); on another port,
     * another replica (give every replica {@code --steadfast.router.leader-election.mode=store}).
     */
    public synchronized ServiceProcess startRouter(int port) {
        return startRouter(port, List.of());
    }

    /** As {@link #startRouter(int)}, with more router settings, e.g. {@code --steadfast.router.standby-hosts=1}. */
    public synchronized ServiceProcess startRouter(int port, List<String> settings) {
        if (checkpointUrl == null) {
            throw new IllegalStateException("Start the checkpoint-service before the router: the router keeps its "
                    + "checkpoint records there");
        }
        URI url = URI.create("http://127.0.0.1:" + port);
        int index = routerUrls.indexOf(url);
        if (index >= 0 && routers.get(index).isAlive()) {
            throw new IllegalStateException("The router on port " + port + " is already running: "
                    + routers.get(index).describe());
        }
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--steadfast.router.checkpoint.service-url=" + checkpointUrl, "--spring.mongodb.uri=" + storeUri));
        args.addAll(settings);
        int replica = index >= 0 ? index : routers.size();
        ServiceProcess router = startOperatorProcess(new ProcessSpec(replica == 0 ? "router" : "router-" + (replica + 1),
                layout.jar(Service.ROUTER), ServiceJvmArgs.ROUTER, args,
                logFile(replica == 0 ? "router" : "router-" + (replica + 1))));
        if (index >= 0) {
            routers.set(index, router);
        } else {
            routers.add(router);
            routerUrls.add(url);
        }
        return router;
    }

    /**
     * Starts a PE host that registers with the running router and stores its snapshots in the checkpoint-service;
     * its HTTP and data ports are chosen by the OS. Fault injection is enabled.
     */
    public synchronized ServiceProcess startHost(HostId id) {
        return startHost(id, HostKind.PE);
    }

    /**
     * Starts a host of {@code kind} as {@link #startHost(HostId)} does: a pe-host-service, or for a VOTER a
     * voter-service, with the same JVM and host settings.
     */
    public synchronized ServiceProcess startHost(HostId id, HostKind kind) {
        if (routerUrls.isEmpty()) {
            throw new IllegalStateException("Start the router before host " + id + ": hosts need its URL");
        }
        ServiceProcess running = hosts.get(id);
        if (running != null && running.isAlive()) {
            throw new IllegalStateException("Host " + id + " is already running: " + running.describe());
        }
        ServiceProcess host = startOperatorProcess(new ProcessSpec(id.value(),
                layout.jar(kind == HostKind.VOTER ? Service.VOTER : Service.HOST), ServiceJvmArgs.HOST,
                List.of("--server.port=0",
                        "--steadfast.host.id=" + id.value(),
                        "--steadfast.host.router-url=" + routerUrlList(),
                        "--steadfast.host.checkpoint-url=" + checkpointUrl,
                        "--steadfast.host.data.bind-address=tcp://127.0.0.1:*",
                        "--steadfast.host.fault-injection.enabled=true"),
                logFile(id.value())));
        hosts.put(id, host);
        kinds.put(id, kind);
        return host;
    }

    /**
     * Router settings with which the routers keep {@code peHosts} PE hosts and {@code voters} voters running as
     * processes of their own ({@code steadfast.router.scheduling.mode=local}): started as {@link #startHost} starts
     * them (the same jars, JVM arguments, operator jars and fault injection, logs in the run directory), registering
     * with every router of {@code routerUrls}, and replaced by a fresh one when one fails. The routers put this run
     * directory's {@link RunDirMarker} on each host's command line, by which {@link #stopAll()} finds the hosts of a
     * router that was killed.
     */
    public synchronized List<String> routerStartedHosts(int peHosts, int voters, List<URI> routerUrls) {
        return new RouterStartedHostSettings(layout, runDir, operators).settings(peHosts, voters, routerUrls);
    }

    /** Starts the dashboard on {@code port} (bound to 127.0.0.1), pointed at the router. */
    public synchronized ServiceProcess startDashboard(int port) {
        if (routerUrls.isEmpty()) {
            throw new IllegalStateException("Start the router before the dashboard: it needs the router's URL");
        }
        dashboard = ServiceProcess.start(new ProcessSpec("dashboard", layout.jar(Service.DASHBOARD),
                ServiceJvmArgs.DASHBOARD,
                List.of("--server.port=" + port, "--server.address=127.0.0.1",
                        "--steadfast.dashboard.router-url=" + routerUrlList(),
                        "--steadfast.dashboard.fault-injection.enabled=true"),
                logFile("dashboard")));
        return dashboard;
    }

    /**
     * Kills the (first) router at once (SIGKILL), as a crash would; the hosts keep running. A router started again
     * with {@link #startRouter} on the same port finds its records in the store and resumes managing them.
     */
    public synchronized void killRouter() {
        killRouter(0);
    }

    /** Kills the router replica {@code index} (in start order) at once (SIGKILL). */
    public synchronized void killRouter(int index) {
        routerProcess(index).kill();
    }

    /**
     * Freezes the (first) router (SIGSTOP) until {@link #resumeRouter}, as a long garbage-collection pause or a paused
     * machine would.
     */
    public synchronized void pauseRouter() {
        pauseRouter(0);
    }

    /** Freezes the router replica {@code index} (SIGSTOP). */
    public synchronized void pauseRouter(int index) {
        routerProcess(index).pause();
    }

    /** Lets the paused (first) router run again (SIGCONT). */
    public synchronized void resumeRouter() {
        resumeRouter(0);
    }

    /** Lets the paused router replica {@code index} run again (SIGCONT). */
    public synchronized void resumeRouter(int index) {
        routerProcess(index).resume();
    }

    /** Whether the (first) router is frozen by {@link #pauseRouter}. */
    public synchronized boolean isRouterPaused() {
        return routerProcess(0).isPaused();
    }

    /** Kills a host at once (SIGKILL), as a crash would; it can be started again with {@link #startHost}. */
    public synchronized void killHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet())).kill();
    }

    /**
     * Freezes a host (SIGSTOP) until {@link #resumeHost}: it stays a process, but silent. {@link #close()} lets
     * frozen hosts run again before it stops them.
     */
    public synchronized void pauseHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet())).pause();
    }

    /** Lets a paused host run again (SIGCONT). */
    public synchronized void resumeHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet())).resume();
    }

    /** Stops a host gracefully (SIGTERM, then SIGKILL after {@link #STOP_GRACE}). */
    public synchronized void stopHost(HostId id) {
        host(id).orElseThrow(() -> new IllegalArgumentException("No host " + id + "; hosts: " + hosts.keySet()))
                .stop(STOP_GRACE);
    }

    public synchronized Optional<ServiceProcess> host(HostId id) {
        return Optional.ofNullable(hosts.get(id));
    }

    /** Every host started so far, in start order, including hosts that have died. */
    public synchronized List<HostId> hostIds() {
        return List.copyOf(hosts.keySet());
    }

    /** The hosts whose process is running, frozen ones included. */
    public synchronized List<HostId> liveHostIds() {
        return hosts.entrySet().stream().filter(e -> e.getValue().isAlive()).map(Map.Entry::getKey).toList();
    }

    /** The hosts of {@code kind} whose process is running, frozen ones included. */
    public synchronized List<HostId> liveHostIds(HostKind kind) {
        return liveHostIds().stream().filter(id -> kinds.get(id) == kind).toList();
    }

    /** The hosts whose process is running and not frozen by {@link #pauseHost}. */
    public synchronized List<HostId> unpausedHostIds() {
        return hosts.entrySet().stream().filter(e -> e.getValue().isAlive() && !e.getValue().isPaused())
                .map(Map.Entry::getKey).toList();
    }

    /** The kind of a host started here, or empty if none was started with that id. */
    public synchronized Optional<HostKind> kindOf(HostId id) {
        return Optional.ofNullable(kinds.get(id));
    }

    /** As {@link #nextHostId(HostKind)} for a PE host: {@code host-<n+1>}. */
    public synchronized HostId nextHostId() {
        return nextHostId(HostKind.PE);
    }

    /**
     * An id for a new host of {@code kind} that no host of this cluster ever had: {@link #hostId} of the highest
     * number used so far plus one, so a replacement for a dead host-2 among host-1..3 is host-4, for a dead voter-1
     * voter-2.
     */
    public synchronized HostId nextHostId(HostKind kind) {
        String prefix = idPrefix(kind);
        int highest = hosts.keySet().stream().map(HostId::value)
                .filter(id -> id.startsWith(prefix) && id.substring(prefix.length()).matches("\\d{1,9}"))
                .mapToInt(id -> Integer.parseInt(id.substring(prefix.length())))
                .max().orElse(0);
        return hostId(kind, highest + 1);
    }

    /** The id of the {@code n}-th host of {@code kind} the launcher starts: {@code host-n}, or {@code voter-n}. */
    public static HostId hostId(HostKind kind, int n) {
        return new HostId(idPrefix(kind) + n);
    }

    private static String idPrefix(HostKind kind) {
        return kind == HostKind.VOTER ? "voter-" : "host-";
    }

    public synchronized Optional<ServiceProcess> checkpointService() {
        return Optional.ofNullable(checkpoint);
    }

    /** The checkpoint-service's base URL, once it has been started. */
    public synchronized URI checkpointUrl() {
        if (checkpointUrl == null) {
            throw new IllegalStateException("The checkpoint-service has not been started");
        }
        return checkpointUrl;
    }

    /** The first router replica, if one was started. */
    public synchronized Optional<ServiceProcess> router() {
        return routers.isEmpty() ? Optional.empty() : Optional.of(routers.get(0));
    }

    /** Every router replica started, in start order (a replaced one's successor in its place). */
    public synchronized List<ServiceProcess> routers() {
        return List.copyOf(routers);
    }

    public synchronized Optional<ServiceProcess> dashboard() {
        return Optional.ofNullable(dashboard);
    }

    /** The (first) router's base URL, once it has been started. */
    public synchronized URI routerUrl() {
        return routerUrls().get(0);
    }

    /** The base URLs of every router replica, in start order, once one has been started. */
    public synchronized List<URI> routerUrls() {
        if (routerUrls.isEmpty()) {
            throw new IllegalStateException("The router has not been started");
        }
        return List.copyOf(routerUrls);
    }

    /** The routers' URLs as hosts and the dashboard take them: separated by commas. */
    private String routerUrlList() {
        return String.join(",", routerUrls().stream().map(URI::toString).toList());
    }

    /** Every process started and not replaced: checkpoint-service, routers, hosts, dashboard. */
    public synchronized List<ServiceProcess> all() {
        List<ServiceProcess> all = new ArrayList<>();
        if (checkpoint != null) {
            all.add(checkpoint);
        }
        all.addAll(routers);
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

    /** As {@link #stopAll()}. */
    @Override
    public synchronized void close() {
        stopAll();
    }

    /**
     * Stops every process: all it started are asked to stop at once, each gets until a common deadline, then the rest
     * are killed; then, with no router left to start more, every host process that still runs with this run
     * directory's {@link RunDirMarker} (started by a router that was killed, or killed at the end of its grace, before
     * it could stop them) gets {@link #LEFT_OVER_GRACE} and is killed after it. Safe to call more than once.
     *
     * @return the hosts left behind by a router that it stopped
     */
    public synchronized List<LeftOverHosts.Stopped> stopAll() {
        List<ServiceProcess> all = all();
        all.forEach(ServiceProcess::requestStop);
        Instant deadline = Instant.now().plus(STOP_GRACE);
        for (ServiceProcess process : all) {
            Duration left = Duration.between(Instant.now(), deadline);
            if (!process.awaitExit(left.isNegative() ? Duration.ZERO : left)) {
                process.kill();
            }
        }
        return new LeftOverHosts(new RunDirMarker(runDir)).stop(LEFT_OVER_GRACE);
    }

    /**
     * Starts a process that validates or runs operators (the router, hosts, and any other kind that does) with the
     * operator jars loaded, so that every such process knows the same operator types.
     */
    private ServiceProcess startOperatorProcess(ProcessSpec spec) {
        return ServiceProcess.start(spec.loading(operators));
    }

    private ServiceProcess routerProcess(int index) {
        if (index >= routers.size()) {
            throw new IllegalStateException("Router replica " + index + " has not been started; " + routers.size()
                    + " started");
        }
        return routers.get(index);
    }

    private Path logFile(String name) {
        return runDir.resolve(name + ".log");
    }
}
