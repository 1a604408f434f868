package io.steadfast.host.registration;

import io.steadfast.host.config.HostProperties;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.host.TaskReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Registers this host with the router once the web server is up, then sends a heartbeat with every task's
 * report each {@code steadfast.host.heartbeat-interval}. Re-registers when the router answers 404 (it forgot
 * this host, e.g. after a restart). An unreachable router is retried forever and logged at most every
 * {@value #WARN_EVERY_SECONDS} seconds. Owns one thread, {@code steadfast-host-heartbeat}.
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
    private volatile URI controlUrl;
    private volatile boolean registered;
    private long lastWarningNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(WARN_EVERY_SECONDS);

    public RouterRegistration(HostProperties properties, ProcessingNode node) {
        this.properties = properties;
        this.node = node;
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
        requests.setReadTimeout(Duration.ofSeconds(5));
        this.router = RestClient.builder().baseUrl(properties.routerUrl().toString()).requestFactory(requests).build();
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
        router.put().uri("/api/v1/hosts/{hostId}/heartbeat", node.id().value()).contentType(MediaType.APPLICATION_JSON)
                .body(new Heartbeat(node.taskReports())).retrieve().toBodilessEntity();
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
        heartbeats.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** Body of {@code POST /api/v1/hosts}. */
    record Registration(String hostId, String controlUrl, String dataEndpoint) {
    }

    /** Body of {@code PUT /api/v1/hosts/{id}/heartbeat}. */
    record Heartbeat(List<TaskReport> tasks) {
    }
}
