package io.steadfast.host.registration;

import io.steadfast.protocol.registration.Heartbeat;
import io.steadfast.protocol.registration.Registered;
import io.steadfast.protocol.registration.Registration;
import io.steadfast.host.config.HostProperties;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.StaleDeployment;
import io.steadfast.host.health.DataPlaneStallWatch;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Registers this host with the router once the web server is up, then sends a heartbeat with every task's
 * report and every deployment's epoch each {@code steadfast.host.heartbeat-interval}. Re-registers when the
 * router answers 404 (it forgot this host, e.g. after a restart). An unreachable router is retried forever and
 * logged at most every {@value #WARN_EVERY_SECONDS} seconds.
 *
 * <p>Fencing: the host registers with a session and holds the {@link HostLease} the router grants, renewed by every
 * answered heartbeat. While the lease has lapsed (this host was frozen, partitioned or starved for longer than it),
 * its data plane sends nothing, so it has no effect on anyone when the router may be moving its tasks; a third thread,
 * {@code steadfast-host-lease}, logs the suspension and the resumption. When the router answers 410 (it declared this
 * session DEAD), the host fences itself: it stops every task ({@link ProcessingNode#fence}), drops the lease and
 * registers again with a new session, empty. The router admits the new session once it has recovered the old one's
 * tasks elsewhere (409 until then).
 *
 * <p>The router answers each heartbeat with its view of what this host should run ({@link HostAssignment});
 * the latest view is reconciled with {@link ProcessingNode#reconcile} on a second thread, so that cancelling
 * stale tasks (seconds, at worst) never delays a heartbeat. The same thread fetches the plans of topologies that
 * run no task here ({@link ProcessingNode#preparePlans}), from {@code GET /api/v1/topologies/{id}/plan}. Owns two threads, {@code steadfast-host-heartbeat}
 * and {@code steadfast-host-reconcile}.
 */
@Component
public class RouterRegistration implements ApplicationListener<WebServerInitializedEvent>, DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(RouterRegistration.class);
    private static final long WARN_EVERY_SECONDS = 5;

    private final HostProperties properties;
    private final ProcessingNode node;
    private final RouterClients routers;
    private final RestClient router;
    private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steadfast-host-heartbeat");
        thread.setDaemon(true);
        return thread;
    });
    private final ExecutorService reconciler = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steadfast-host-reconcile");
        thread.setDaemon(true);
        return thread;
    });
    private final ScheduledExecutorService leaseWatch = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steadfast-host-lease");
        thread.setDaemon(true);
        return thread;
    });
    private final HostLease lease;
    /** Guards {@code session}, {@code registered} and the lease against a fence racing an answer. */
    private final Object sessionLock = new Object();
    private volatile String session = newSession();
    /** Whether the lease had lapsed at the last check (lease thread only). */
    private boolean suspended;
    /** The latest view not yet reconciled; a newer one replaces it, so a slow reconcile never queues up views. */
    private final AtomicReference<HostAssignment> pendingAssignment = new AtomicReference<>();
    private final RegistrationGate gate;
    private final DataPlaneStallWatch stallWatch;
    /** Whether the last beat found the data plane stuck (heartbeat thread only). */
    private boolean stalled;
    private volatile URI controlUrl;
    private volatile boolean registered;
    private long lastWarningNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(WARN_EVERY_SECONDS);

    public RouterRegistration(HostProperties properties, ProcessingNode node, ObjectProvider<RegistrationGate> gate,
                              HostLease lease, DataPlaneStallWatch stallWatch, RouterClients routers) {
        this.properties = properties;
        this.node = node;
        this.lease = lease;
        this.stallWatch = stallWatch;
        this.gate = gate.getIfAvailable(() -> RegistrationGate.OPEN);
        this.routers = routers;
        this.router = routers.client(Duration.ofSeconds(2), Duration.ofSeconds(5));
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() != null || controlUrl != null) {
            return; // a management server, or already started
        }
        start(properties.advertisedUrl() != null ? properties.advertisedUrl()
                : URI.create("http://127.0.0.1:" + event.getWebServer().getPort()));
    }

    /** Starts registering and heartbeating, advertising {@code controlUrl} as this host's REST API. */
    void start(URI controlUrl) {
        this.controlUrl = controlUrl;
        LOG.info("Host {} of kind {} (control {}, data {}) registers with the router at {} every {}", node.id(),
                properties.kind(), controlUrl, node.dataEndpoint(), properties.routerUrl(),
                properties.heartbeatInterval());
        long interval = properties.heartbeatInterval().toMillis();
        heartbeats.scheduleWithFixedDelay(this::beat, 0, interval, TimeUnit.MILLISECONDS);
        leaseWatch.scheduleWithFixedDelay(this::watchLease, LEASE_CHECK_MILLIS, LEASE_CHECK_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** How often the lease is checked: a small part of any lease the router grants (three quarters of its timeout). */
    private static final long LEASE_CHECK_MILLIS = 20;

    /** The session this host process registered with; a new one after each time it fenced itself. */
    public String session() {
        return session;
    }

    private static String newSession() {
        return UUID.randomUUID().toString();
    }

    /**
     * Suspends this host while its lease has lapsed: its data plane sends nothing (the lease is its gate), its tasks
     * keep their state and block on credit. What ends the suspension is the router's next answer: a heartbeat taken
     * (the router had not declared this host dead: a slow answer, or a restarted router that lets hosts re-register)
     * renews the lease and the tasks go on; a 410 (it had) fences this host. Stopping the tasks at the lapse itself
     * would turn every router restart or slow heartbeat into the loss of every task here.
     */
    private void watchLease() {
        try {
            long now = lease.now();
            boolean lapsed = lease.lapsed(now);
            if (lapsed && !suspended) {
                suspended = true;
                LOG.warn("Host {} suspends its tasks: its lease of {} ms lapsed, the last heartbeat the router answered"
                        + " was sent {} ms ago (this host was frozen, cut off from the router, or starved). It sends"
                        + " nothing until the router answers again; if the router declared it dead meanwhile, it stops"
                        + " every task and rejoins empty", node.id(), lease.length().toMillis(),
                        lease.sinceRenewal(now).toMillis());
            } else if (!lapsed && suspended) {
                suspended = false;
                LOG.info("Host {} resumes its tasks: the router answered it again under session {}", node.id(), session);
            }
        } catch (RuntimeException e) {
            LOG.error("Host {} could not check its lease; checking again", node.id(), e);
        }
    }

    /**
     * Stops every task, drops the lease and takes a new session, so that the next beat registers this host again,
     * empty; unless this host took a new session since {@code session} (the one the router refused). Serialised with
     * what the beats record of their answers (never with the calls themselves, which may hang), so that an answer to
     * the old session renews nothing.
     */
    private void fenceIfStill(String session, String why) {
        synchronized (sessionLock) {
            if (session.equals(this.session)) {
                fenceLocked(why);
            }
        }
    }

    private void fenceLocked(String why) {
        List<HostDeployment> stopped = node.fence();
        lease.revoked();
        registered = false;
        String old = session;
        session = newSession();
        LOG.warn("Host {} fenced itself: {}. It stopped every task ({}) and registers again as a new session {}"
                + " (was {}); the router recovers those tasks elsewhere", node.id(), why,
                stopped.isEmpty() ? "none ran" : stopped, session, old);
        heartbeats.execute(this::beat); // register now, not at the next tick: the router may be waiting for hosts
    }

    /** Whether the router acknowledged the last registration or heartbeat. */
    public boolean isRegistered() {
        return registered;
    }

    private void beat() {
        String current = session;
        try {
            if (dataPlaneStalled()) {
                return;
            }
            if (!registered) {
                if (!gate.isOpen()) {
                    return; // not ready to take work yet
                }
                if (!register(current)) {
                    return;
                }
            }
            sendHeartbeat(current);
        } catch (HttpClientErrorException.NotFound e) {
            LOG.info("Router at {} does not know host {}; registering again", routers.current(), node.id());
            registered = false;
        } catch (HttpClientErrorException.Gone e) {
            fenceIfStill(current, "the router declared its session " + current + " over: "
                    + e.getResponseBodyAsString());
        } catch (HttpClientErrorException.Conflict e) {
            LOG.info("Router at {} does not admit host {} yet: the tasks of its earlier session are being recovered;"
                    + " registering again shortly", routers.current(), node.id());
        } catch (RestClientException e) {
            registered = false;
            warnRateLimited(e);
        } catch (RuntimeException e) {
            LOG.error("Heartbeat of host {} failed unexpectedly; retrying", node.id(), e);
        }
    }

    /**
     * Whether the data plane's IO thread is stuck ({@link DataPlaneStallWatch}): then this host sends no heartbeat,
     * so that the router declares it dead and recovers its tasks elsewhere; it heartbeats again once the thread runs,
     * and is then told its session is over (410) and fences itself.
     */
    private boolean dataPlaneStalled() {
        Optional<String> stall = stallWatch.stall();
        if (stall.isPresent() && !stalled) {
            LOG.error("Host {} stops heartbeating, so that the router recovers its tasks elsewhere: {}", node.id(),
                    stall.get());
        } else if (stall.isEmpty() && stalled) {
            LOG.warn("Host {} heartbeats again: its data plane's IO thread runs again", node.id());
        }
        stalled = stall.isPresent();
        return stalled;
    }

    /** @return whether {@code current} is registered now (false if this host fenced itself meanwhile) */
    private boolean register(String current) {
        long sent = lease.now();
        Registered answer = router.post().uri("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON)
                .body(new Registration(node.id(), controlUrl, node.dataEndpoint(), current, properties.kind(),
                        properties.instance()))
                .retrieve().body(Registered.class);
        if (answer == null || answer.lease() == null) {
            throw new IllegalStateException("the router at " + routers.current() + " granted no lease; it must be"
                    + " of the same version as this host");
        }
        synchronized (sessionLock) {
            if (!current.equals(session)) {
                return false;
            }
            lease.granted(Duration.parse(answer.lease()), sent);
            registered = true;
        }
        LOG.info("Host {} registered with the router at {} (session {}, lease {})", node.id(), routers.current(),
                current, answer.lease());
        return true;
    }

    private void sendHeartbeat(String current) {
        long sent = lease.now();
        HostAssignment assignment = router.put().uri("/api/v1/hosts/{hostId}/heartbeat", node.id().value())
                .contentType(MediaType.APPLICATION_JSON).body(new Heartbeat(node.taskReports(), node.deployments(), current)).retrieve()
                .body(HostAssignment.class);
        synchronized (sessionLock) {
            if (!current.equals(session)) {
                return; // an answer to the session this host fenced meanwhile: it renews nothing
            }
            lease.renewed(sent);
        }
        if (assignment != null && pendingAssignment.getAndSet(assignment) == null) {
            reconciler.execute(this::reconcile);
        }
    }

    private void reconcile() {
        HostAssignment assignment = pendingAssignment.getAndSet(null);
        if (assignment == null || node.isClosed()) {
            return;
        }
        try {
            List<StaleDeployment> cancelled = node.reconcile(assignment, properties.unknownTopologyGrace());
            if (!cancelled.isEmpty()) {
                LOG.warn("Host {} dropped {} stale deployment(s) the router no longer runs here: {}", node.id(),
                        cancelled.size(), cancelled.stream().map(StaleDeployment::deployment).toList());
            }
        } catch (RuntimeException e) {
            LOG.error("Host {} could not reconcile its tasks with the router's view {}; retrying with the next"
                    + " heartbeat", node.id(), assignment, e);
        }
        try {
            List<TopologyId> prepared = node.preparePlans(assignment, this::planFromRouter);
            if (!prepared.isEmpty()) {
                LOG.info("Host {} fetched the plans of {} ahead, to take over their tasks without being sent them",
                        node.id(), prepared);
            }
        } catch (RestClientException e) {
            LOG.debug("Host {} could not fetch a plan from the router ({}); retrying with the next heartbeat",
                    node.id(), e.getMessage());
        }
    }

    private Optional<ExecutionPlan> planFromRouter(TopologyId topology) {
        try {
            return Optional.ofNullable(router.get().uri("/api/v1/topologies/{id}/plan", topology.value())
                    .retrieve().body(ExecutionPlan.class));
        } catch (HttpClientErrorException.NotFound e) {
            return Optional.empty();
        }
    }

    private void warnRateLimited(RestClientException e) {
        long now = System.nanoTime();
        if (now - lastWarningNanos >= TimeUnit.SECONDS.toNanos(WARN_EVERY_SECONDS)) {
            lastWarningNanos = now;
            LOG.warn("Router at {} is unreachable from host {} ({}); retrying every {}. Check that the router runs"
                    + " and steadfast.host.router-url is right", routers.current(), node.id(), e.getMessage(),
                    properties.heartbeatInterval());
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        heartbeats.shutdownNow();
        reconciler.shutdownNow();
        leaseWatch.shutdownNow();
        heartbeats.awaitTermination(5, TimeUnit.SECONDS);
        reconciler.awaitTermination(5, TimeUnit.SECONDS);
    }
}
