package io.steadfast.host.registration;

import io.steadfast.protocol.registration.Suspicion;
import io.steadfast.runtime.plan.HostId;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Tells the router about peer hosts whose data-plane connection from this host dropped
 * ({@code POST /api/v1/hosts/{peer}/suspicions}), so that it can check them before their heartbeat timeout.
 * {@link #peerDisconnected} is called on the data plane's IO thread and only enqueues: reports about one peer
 * are sent at most once per {@code minInterval}, at most {@value #QUEUE} wait (more are dropped: they are hints),
 * and they are sent on one thread, {@code steadfast-host-suspicions}. A failed report is logged, not retried:
 * the heartbeat timeout still applies. Thread-safe.
 */
public final class SuspicionReporter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SuspicionReporter.class);
    private static final int QUEUE = 16;

    private final HostId self;
    private final RestClient router;
    private final InstantSource clock;
    private final Duration minInterval;
    private final Map<HostId, Instant> lastReported = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE), runnable -> {
                Thread thread = new Thread(runnable, "steadfast-host-suspicions");
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.DiscardPolicy());

    /** @param router a client whose base URL is the router's and whose timeouts are short */
    public SuspicionReporter(HostId self, RestClient router, InstantSource clock, Duration minInterval) {
        this.self = self;
        this.router = router;
        this.clock = clock;
        this.minInterval = minInterval;
    }

    /** This host's data-plane connection to {@code peer} dropped. Any thread; never blocks. */
    public void peerDisconnected(HostId peer) {
        Instant now = clock.instant();
        Instant last = lastReported.get(peer);
        if (last != null && Duration.between(last, now).compareTo(minInterval) < 0) {
            return;
        }
        lastReported.put(peer, now);
        try {
            sender.execute(() -> send(peer));
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private void send(HostId peer) {
        try {
            router.post().uri("/api/v1/hosts/{peer}/suspicions", peer.value()).contentType(MediaType.APPLICATION_JSON)
                    .body(new Suspicion(self)).retrieve().toBodilessEntity();
            LOG.info("Host {} lost its data-plane connection to host {}; told the router", self, peer);
        } catch (RestClientException e) {
            LOG.warn("Host {} lost its data-plane connection to host {} but could not tell the router ({}); its"
                    + " heartbeat timeout still applies", self, peer, e.getMessage());
        }
    }

    @Override
    public void close() throws InterruptedException {
        sender.shutdownNow();
        sender.awaitTermination(5, TimeUnit.SECONDS);
    }
}
