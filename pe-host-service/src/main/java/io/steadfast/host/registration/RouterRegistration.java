package io.steadfast.host.registration;

import io.steadfast.host.config.HostProperties;
import io.steadfast.host.config.ServiceClients;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.StaleDeployment;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
    /** The latest view not yet reconciled; a newer one replaces it, so a slow reconcile never queues up views. */
    private final AtomicReference<HostAssignment> pendingAssignment = new AtomicReference<>();
    private final RegistrationGate gate;
    private volatile URI controlUrl;
    private volatile boolean registered;
    private long lastWarningNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(WARN_EVERY_SECONDS);

    public RouterRegistration(HostProperties properties, ProcessingNode node, ObjectProvider<RegistrationGate> gate) {
        this.properties = properties;
        this.node = node;
        this.gate = gate.getIfAvailable(() -> RegistrationGate.OPEN);
        this.router = ServiceClients.client(Duration.ofSeconds(2), Duration.ofSeconds(5)).mutate()
                .baseUrl(properties.routerUrl().toString()).build();
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() != null || controlUrl != null) {
            return; // a management server, or already started
        }
        controlUrl = properties.advertisedUrl() != null ? properties.advertisedUrl()
                : URI.create("http://127.0.0.1:" + event.getWebServer().getPort());
        LOG.info("Host {} (control {}, data {}) registers with the router at {} every {}", node.id(), controlUrl,
                node.dataEndpoint(), properties.routerUrl(), properties.heartbeatInterval());
        long interval = properties.heartbeatInterval().toMillis();
        heartbeats.scheduleWithFixedDelay(this::beat, 0, interval, TimeUnit.MILLISECONDS);
    }

    /** Whether the router acknowledged the last registration or heartbeat. */
    public boolean isRegistered() {
        return registered;
    }

    private void beat() {
        try {
            if (!registered) {
                if (!gate.isOpen()) {
                    return; // not ready to take work yet
                }
                register();
            }
            sendHeartbeat();
        } catch (HttpClientErrorException.NotFound e) {
            LOG.info("Router at {} does not know host {}; registering again", properties.routerUrl(), node.id());
            registered = false;
        } catch (RestClientException e) {
            registered = false;
            warnRateLimited(e);
        } catch (RuntimeException e) {
            LOG.error("Heartbeat of host {} failed unexpectedly; retrying", node.id(), e);
        }
    }

    private void register() {
        router.post().uri("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON)
                .body(new Registration(node.id().value(), controlUrl.toString(), node.dataEndpoint()))
                .retrieve().toBodilessEntity();
        registered = true;
        LOG.info("Host {} registered with the router at {}", node.id(), properties.routerUrl());
    }

    private void sendHeartbeat() {
        HostAssignment assignment = router.put().uri("/api/v1/hosts/{hostId}/heartbeat", node.id().value())
                .contentType(MediaType.APPLICATION_JSON).body(Heartbeat.of(node)).retrieve()
                .body(HostAssignment.class);
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
                    + " and steadfast.host.router-url is right", properties.routerUrl(), node.id(), e.getMessage(),
                    properties.heartbeatInterval());
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        heartbeats.shutdownNow();
        reconciler.shutdownNow();
        heartbeats.awaitTermination(5, TimeUnit.SECONDS);
        reconciler.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** Body of {@code POST /api/v1/hosts}. */
    record Registration(String hostId, String controlUrl, String dataEndpoint) {
    }

    /** Body of {@code PUT /api/v1/hosts/{id}/heartbeat}: every task's report and every deployment's epoch. */
    public record Heartbeat(List<TaskReport> tasks, List<HostDeployment> deployments) {

        /** What the host sends now. */
        public static Heartbeat of(ProcessingNode node) {
            return new Heartbeat(node.taskReports(), node.deployments());
        }
    }
}
