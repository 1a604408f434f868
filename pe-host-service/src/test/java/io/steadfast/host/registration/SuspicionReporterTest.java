package io.steadfast.host.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.testkit.ManualClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.web.client.RestClient;

/** Suspicion reports reach a router over real HTTP on loopback, asynchronously and at most once a second per peer. */
@Timeout(30)
class SuspicionReporterTest {

    private static final HostId SELF = new HostId("host-self");
    private static final HostId PEER = new HostId("host-peer");
    private static final HostId OTHER = new HostId("host-other");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<String> received = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private HttpServer router;
    private SuspicionReporter reporter;

    @BeforeEach
    void startRouter() throws IOException {
        router = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        router.createContext("/api/v1/hosts/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body);
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(202, -1);
            exchange.close();
        });
        router.start();
        reporter = new SuspicionReporter(SELF, RestClient.builder()
                .baseUrl("http://127.0.0.1:" + router.getAddress().getPort()).build(), clock, Duration.ofSeconds(1));
    }

    @AfterEach
    void stop() throws InterruptedException {
        gate.countDown();
        reporter.close();
        router.stop(0);
    }

    @Test
    void reportsAPeerOncePerIntervalAndEachPeerOnItsOwn() {
        reporter.peerDisconnected(PEER);
        reporter.peerDisconnected(PEER);
        reporter.peerDisconnected(OTHER);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
        assertThat(received).containsExactlyInAnyOrder(
                "POST /api/v1/hosts/host-peer/suspicions {\"reporter\":\"host-self\"}",
                "POST /api/v1/hosts/host-other/suspicions {\"reporter\":\"host-self\"}");

        clock.advance(Duration.ofMillis(999));
        reporter.peerDisconnected(PEER);
        clock.advance(Duration.ofMillis(1));
        reporter.peerDisconnected(PEER);

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 3);
        assertThat(received.get(2)).startsWith("POST /api/v1/hosts/host-peer/suspicions");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 3);
    }

    @Test
    void returnsAtOnceWhileTheRouterIsStillAnsweringAnEarlierReport() {
        gate = new CountDownLatch(1);
        reporter.peerDisconnected(PEER);
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 1);

        reporter.peerDisconnected(OTHER); // sent inline, this would wait for the stuck router forever

        assertThat(received).hasSize(1);
        gate.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 2);
    }
}
