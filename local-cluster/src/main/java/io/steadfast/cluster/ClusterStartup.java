package io.steadfast.cluster;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.FreePort;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Starts the processes of a {@link ClusterProcesses} in order and waits until each is ready: the
 * checkpoint-service's health UP, the router's health UP, every host and voter LIVE in the router, the dashboard's
 * health UP. A process that exits or is not ready in time fails the startup with a {@link ServiceStartupException}
 * naming it and its log file.
 */
public final class ClusterStartup {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final int FREE_PORT_ATTEMPTS = 3;

    private final ClusterProcesses processes;
    private final Duration timeout;
    private final Consumer<String> progress;

    public ClusterStartup(ClusterProcesses processes, Duration timeout, Consumer<String> progress) {
        this.processes = processes;
        this.timeout = timeout;
        this.progress = progress;
    }

    /** Host ids {@code host-1} to {@code host-n}. */
    public static List<HostId> hostIds(int count) {
        return hostIds(HostKind.PE, count);
    }

    /** Ids of hosts of {@code kind}: {@code host-1} to {@code host-n}, or {@code voter-1} to {@code voter-n}. */
    public static List<HostId> hostIds(HostKind kind, int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> ClusterProcesses.hostId(kind, i)).toList();
    }

    /** Starts the checkpoint-service on a fixed port and waits for its {@code /actuator/health} to be UP. */
    public URI startCheckpointService(int port) {
        if (!FreePort.isFree(port)) {
            throw new IllegalStateException("Checkpoint-service port " + port + " on 127.0.0.1 is in use (another "
                    + "Steadfast cluster?). Stop that process or pass --checkpoint-port with a free port.");
        }
        return awaitCheckpointServiceUp(processes.startCheckpointService(port), port);
    }

    /**
     * Starts the checkpoint-service on a port that was free a moment before and waits for it to be UP; restarted
     * on a new port (up to three times) if another process took the port in between.
     */
    public URI startCheckpointServiceOnFreePort() {
        for (int attempt = 1; ; attempt++) {
            int port = FreePort.pick();
            ServiceProcess checkpoint = processes.startCheckpointService(port);
            try {
                return awaitCheckpointServiceUp(checkpoint, port);
            } catch (ServiceStartupException e) {
                if (!portTaken(checkpoint) || attempt == FREE_PORT_ATTEMPTS) {
                    throw e;
                }
                progress.accept("port " + port + " was taken before the checkpoint-service bound it; retrying on another port");
            }
        }
    }

    private URI awaitCheckpointServiceUp(ServiceProcess checkpoint, int port) {
        URI url = URI.create("http://127.0.0.1:" + port);
        progress.accept("started checkpoint-service pid " + checkpoint.pid() + "  " + url + "  log " + checkpoint.logFile());
        awaitUp(checkpoint, () -> isUp(url.resolve("/actuator/health")), "/actuator/health");
        progress.accept("checkpoint-service is UP (embedded store in "
                + processes.runDir().resolve(ClusterProcesses.CHECKPOINT_STORE_DIR) + ")");
        return url;
    }

    /** Starts the router on a fixed port and waits for it to be UP. */
    public RouterClient startRouter(int port) {
        return startRouter(port, List.of());
    }

    /** As {@link #startRouter(int)}, with more router settings. */
    public RouterClient startRouter(int port, List<String> settings) {
        if (!FreePort.isFree(port)) {
            throw new IllegalStateException("Router port " + port + " on 127.0.0.1 is in use (another Steadfast "
                    + "cluster?). Stop that process or pass --router-port with a free port.");
        }
        ServiceProcess router = processes.startRouter(port, settings);
        progress.accept("started router   pid " + router.pid() + "  http://127.0.0.1:" + port + "  log " + router.logFile());
        return awaitRouterUp(router);
    }

    /**
     * Starts a router replica on each of {@code ports}, first to last, and waits for each to be UP; with more than
     * one, they elect their leader through a lease in the embedded store
     * ({@code steadfast.router.leader-election.mode=store}) and the first one started leads.
     */
    public RouterClient startRouters(List<Integer> ports, List<String> settings) {
        List<String> replicated = new java.util.ArrayList<>(settings);
        if (ports.size() > 1) {
            replicated.add("--steadfast.router.leader-election.mode=store");
        }
        RouterClient routers = null;
        for (int port : ports) {
            routers = startRouter(port, replicated);
        }
        return routers;
    }

    /**
     * Waits until the router lists {@code count} LIVE hosts of {@code kind} that it started itself
     * ({@link ClusterProcesses#routerStartedHosts}), failing fast if the leading router exits.
     */
    public void awaitRouterStartedHosts(RouterClient router, HostKind kind, int count) {
        if (count == 0) {
            return;
        }
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            List<String> live = liveHosts(router, kind);
            if (live.size() >= count) {
                progress.accept("the router started " + count + " " + (kind == HostKind.VOTER ? "voters" : "hosts")
                        + ", LIVE: " + String.join(" ", live));
                return;
            }
            processes.firstExited().filter(p -> processes.routers().contains(p)).ifPresent(router0 -> {
                throw new ServiceStartupException(router0, "exited while it started its hosts");
            });
            if (Instant.now().isAfter(deadline)) {
                throw new ServiceStartupException(processes.router().orElseThrow(), "did not have " + count + " "
                        + kind + " hosts LIVE within " + timeout.toSeconds() + "s (LIVE: " + String.join(", ", live)
                        + "); see the host logs in " + processes.runDir());
            }
            pause();
        }
    }

    private static List<String> liveHosts(RouterClient router, HostKind kind) {
        try {
            return router.hosts().stream().filter(h -> h.kind() == kind && h.isLive()).map(h -> h.hostId().value())
                    .sorted().toList();
        } catch (RouterRequestException e) {
            return List.of();
        }
    }

    /**
     * Starts the router on a port that was free a moment before, and waits for it to be UP. Picking a port and
     * then binding it is racy (another process may take it in between), so a router that exits reporting the
     * port in use is restarted on a new port, up to three times.
     */
    public RouterClient startRouterOnFreePort() {
        return startRouterOnFreePort(List.of());
    }

    /** As {@link #startRouterOnFreePort()}, with more router settings. */
    public RouterClient startRouterOnFreePort(List<String> settings) {
        for (int attempt = 1; ; attempt++) {
            int port = FreePort.pick();
            ServiceProcess router = processes.startRouter(port, settings);
            progress.accept("started router   pid " + router.pid() + "  http://127.0.0.1:" + port + "  log " + router.logFile());
            try {
                return awaitRouterUp(router);
            } catch (ServiceStartupException e) {
                if (!portTaken(router) || attempt == FREE_PORT_ATTEMPTS) {
                    throw e;
                }
                progress.accept("port " + port + " was taken before the router bound it; retrying on another port");
            }
        }
    }

    /** Starts hosts {@code host-1..host-n} and waits until the router lists all of them as LIVE. */
    public void startHosts(RouterClient router, int count) {
        startHosts(router, HostKind.PE, count);
    }

    /**
     * Starts voter-services {@code voter-1..voter-n}, which run the vote tasks of N-version operators, and waits until
     * the router lists all of them as LIVE; none if {@code count} is 0.
     */
    public void startVoters(RouterClient router, int count) {
        startHosts(router, HostKind.VOTER, count);
    }

    private void startHosts(RouterClient router, HostKind kind, int count) {
        List<HostId> ids = hostIds(kind, count);
        for (HostId id : ids) {
            ServiceProcess host = processes.startHost(id, kind);
            progress.accept("started " + String.format("%-8s", id) + " pid " + host.pid() + "  log " + host.logFile());
        }
        if (!ids.isEmpty()) {
            awaitHostsLive(router, Set.copyOf(ids));
        }
    }

    /**
     * Starts {@code count} standby hosts after the {@code afterHosts} started by {@link #startHosts}, one at a time
     * (the router takes the hosts registered last as its standbys), each LIVE before the next.
     */
    public void startStandbyHosts(RouterClient router, int afterHosts, int count) {
        for (int i = 1; i <= count; i++) {
            startHost(router, ClusterProcesses.hostId(HostKind.PE, afterHosts + i));
        }
    }

    /** Starts one more host with the given id and waits until the router lists it as LIVE. */
    public void startHost(RouterClient router, HostId id) {
        startHost(router, id, HostKind.PE);
    }

    /** Starts one more host of {@code kind} with the given id and waits until the router lists it as LIVE. */
    public void startHost(RouterClient router, HostId id, HostKind kind) {
        ServiceProcess host = processes.startHost(id, kind);
        progress.accept("started " + String.format("%-8s", id) + " pid " + host.pid() + "  log " + host.logFile());
        awaitHostsLive(router, Set.of(id));
    }

    /** Waits until every host in {@code ids} is LIVE in the router, failing fast if one of their processes exits. */
    public void awaitHostsLive(RouterClient router, Set<HostId> ids) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            for (HostId id : ids) {
                ServiceProcess host = processes.host(id).orElseThrow();
                if (!host.isAlive()) {
                    throw new ServiceStartupException(host, "exited before it became LIVE");
                }
            }
            Set<HostId> live = liveHosts(router);
            if (live.containsAll(ids)) {
                progress.accept("all " + ids.size() + " " + (ids.size() == 1 ? "host is" : "hosts are") + " LIVE");
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                HostId missing = ids.stream().filter(id -> !live.contains(id)).sorted().findFirst().orElseThrow();
                throw new ServiceStartupException(processes.host(missing).orElseThrow(),
                        "was not LIVE in the router's /api/v1/hosts within " + timeout.toSeconds() + "s (LIVE: "
                                + live.stream().map(HostId::value).sorted().collect(Collectors.joining(", ")) + ")");
            }
            pause();
        }
    }

    /** Starts the dashboard and waits until it is live (its readiness also depends on the router). */
    public void startDashboard(int port) {
        if (!FreePort.isFree(port)) {
            throw new IllegalStateException("Dashboard port " + port + " on 127.0.0.1 is in use. Stop that process, "
                    + "pass --dashboard-port with a free port, or --no-dashboard.");
        }
        ServiceProcess dashboard = processes.startDashboard(port);
        progress.accept("started dashboard pid " + dashboard.pid() + "  http://127.0.0.1:" + port + "  log " + dashboard.logFile());
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health/liveness");
        awaitUp(dashboard, () -> isUp(health), "/actuator/health/liveness");
    }

    /**
     * Waits for the router just started (the last replica) to be UP, a standby included; returns a client of every
     * replica, which follows the leader.
     */
    private RouterClient awaitRouterUp(ServiceProcess router) {
        List<java.net.URI> urls = processes.routerUrls();
        RouterClient started = new RouterClient(urls.get(processes.routers().indexOf(router)));
        awaitUp(router, () -> started.healthStatus().filter("UP"::equals).isPresent(), "/actuator/health");
        progress.accept(router.name() + " is UP");
        return new RouterClient(urls);
    }

    private static boolean portTaken(ServiceProcess process) {
        return !process.isAlive() && process.logContains("already in use");
    }

    private void awaitUp(ServiceProcess process, BooleanSupplier up, String endpoint) {
        Instant deadline = Instant.now().plus(timeout);
        while (!up.getAsBoolean()) {
            if (!process.isAlive()) {
                throw new ServiceStartupException(process, "exited before its " + endpoint + " was UP");
            }
            if (Instant.now().isAfter(deadline)) {
                throw new ServiceStartupException(process, "was not UP at " + endpoint + " within " + timeout.toSeconds() + "s");
            }
            pause();
        }
    }

    private static Set<HostId> liveHosts(RouterClient router) {
        try {
            return router.liveHostIds();
        } catch (RouterRequestException e) {
            return Set.of();
        }
    }

    private static boolean isUp(URI health) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"UP\"");
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the cluster to start", e);
        }
    }
}
