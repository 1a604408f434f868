package io.steadfast.router.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.steadfast.router.failure.SuspicionChecker.Outcome;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.testkit.ManualClock;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A reported data-plane disconnect is a hint: the router probes the host over real HTTP on loopback and declares
 * it DEAD only if its machine refuses the probe (the process is gone) and it has missed a heartbeat; faster than the
 * heartbeat timeout. A host that accepts the probe's connection but does not answer (frozen) is left to the timeout.
 */
@Timeout(30)
class SuspicionCheckerTest {

    private static final Duration TIMEOUT = Duration.ofMillis(800);
    private static final Duration MIN_SILENCE = Duration.ofMillis(300);
    private static final HostId SUSPECT = new HostId("host-suspect");
    private static final HostId REPORTER = new HostId("host-reporter");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, TIMEOUT);
    private final SuspicionChecker checker = new SuspicionChecker(detector, new HttpHostProbe(probeClient()), clock,
            MIN_SILENCE, true);
    private final AtomicInteger probes = new AtomicInteger();
    private HttpServer liveHost;

    private static RestClient probeClient() {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory(); // as the router's
        requests.setConnectTimeout(Duration.ofMillis(300));
        requests.setReadTimeout(Duration.ofMillis(300));
        return RestClient.builder().requestFactory(requests).build();
    }

    @AfterEach
    void close() throws InterruptedException {
        checker.close();
        if (liveHost != null) {
            liveHost.stop(0);
        }
    }

    /** A host whose REST API answers its liveness probe with 200. */
    private URI liveControlUrl() throws IOException {
        liveHost = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        liveHost.createContext(HttpHostProbe.PATH, exchange -> {
            probes.incrementAndGet();
            byte[] body = "{\"status\":\"UP\"}".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        liveHost.start();
        return URI.create("http://127.0.0.1:" + liveHost.getAddress().getPort());
    }

    /** The URL of a host process that is gone: nothing listens on its port any more (connections are refused). */
    private static URI deadControlUrl() throws IOException {
        int port;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        return URI.create("http://127.0.0.1:" + port);
    }

    private void register(URI controlUrl) {
        hosts.register(SUSPECT, controlUrl, "tcp://127.0.0.1:1", clock.instant());
        hosts.register(REPORTER, URI.create("http://127.0.0.1:2"), "tcp://127.0.0.1:3", clock.instant());
        detector.sweep();
    }

    private Outcome suspect() throws Exception {
        return checker.suspect(SUSPECT, REPORTER).get(10, TimeUnit.SECONDS);
    }

    private HostStatus statusOfSuspect() {
        return detector.statusOf(hosts.find(SUSPECT).orElseThrow());
    }

    @Test
    void aSuspectedHostThatAnswersItsProbeStaysLiveEvenAfterAMissedHeartbeat() throws Exception {
        register(liveControlUrl());
        clock.advance(Duration.ofMillis(500));

        assertThat(suspect()).isEqualTo(Outcome.ANSWERED_PROBE);

        assertThat(probes).hasValue(1);
        assertThat(statusOfSuspect()).isEqualTo(HostStatus.LIVE);
        assertThat(detector.failures()).isEmpty();
    }

    @Test
    void aSuspectedHostThatDoesNotAnswerAndMissedAHeartbeatIsDeadBeforeTheHeartbeatTimeout() throws Exception {
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(350));
        List<DetectedFailure> told = new CopyOnWriteArrayList<>();
        detector.onFailure(told::add);

        assertThat(suspect()).isEqualTo(Outcome.DECLARED_DEAD);

        assertThat(statusOfSuspect()).as("350 ms of silence, timeout 800 ms").isEqualTo(HostStatus.DEAD);
        assertThat(detector.liveHosts()).extracting(host -> host.id()).containsExactly(REPORTER);
        DetectedFailure failure = detector.failures().get(0);
        assertThat(failure.host()).isEqualTo(SUSPECT);
        assertThat(failure.cause()).isEqualTo(DetectionCause.DATA_PLANE_DISCONNECT);
        assertThat(failure.detectionTime()).isEqualTo(Duration.ofMillis(350)).isLessThan(TIMEOUT);
        assertThat(told).as("recovery listeners told at once").containsExactly(failure);

        detector.sweep();
        assertThat(detector.failures()).as("recorded once").hasSize(1);
    }

    @Test
    void aSuspectedHostThatDoesNotAnswerIsDeclaredDeadOnlyOnceItMissedAHeartbeat() throws Exception {
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(100));

        var check = checker.suspect(SUSPECT, REPORTER);
        assertThat(statusOfSuspect()).as("a hint alone, 100 ms after a heartbeat").isEqualTo(HostStatus.LIVE);
        clock.advance(Duration.ofMillis(250));

        assertThat(check.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.DECLARED_DEAD);
        assertThat(detector.failures()).singleElement()
                .satisfies(failure -> assertThat(failure.detectionTime()).isEqualTo(Duration.ofMillis(350)));
    }

    @Test
    void aHostThatDoesNotAnswerIsAnnouncedAsSuspectedOnceBeforeItIsDeclaredDead() throws Exception {
        List<Integer> failuresWhenTold = new CopyOnWriteArrayList<>();
        List<HostId> suspected = new CopyOnWriteArrayList<>();
        checker.onSuspected(host -> {
            failuresWhenTold.add(detector.failures().size());
            suspected.add(host);
        });
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(100));

        var check = checker.suspect(SUSPECT, REPORTER);
        await().atMost(Duration.ofSeconds(5)).until(() -> !suspected.isEmpty());
        clock.advance(Duration.ofMillis(250));

        assertThat(check.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.DECLARED_DEAD);
        assertThat(suspected).as("once, however often it was probed").containsExactly(SUSPECT);
        assertThat(failuresWhenTold).as("before it was declared DEAD").containsExactly(0);
    }

    @Test
    void aFrozenHostThatAcceptsButDoesNotAnswerIsLeftToTheHeartbeatTimeoutAndItsRecoveryPrepared() throws Exception {
        List<HostId> suspected = new CopyOnWriteArrayList<>();
        checker.onSuspected(suspected::add);
        try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            // accepted by the kernel into the backlog, never read: a SIGSTOPped process that may still run its
            // tasks once it resumes, so only its lapsed lease makes moving them safe
            register(URI.create("http://127.0.0.1:" + frozen.getLocalPort()));
            clock.advance(Duration.ofMillis(500));

            assertThat(suspect()).isEqualTo(Outcome.NO_ANSWER);
        }

        assertThat(statusOfSuspect()).as("500 ms of silence, timeout 800 ms").isEqualTo(HostStatus.LIVE);
        assertThat(detector.failures()).isEmpty();
        assertThat(suspected).as("its recovery is prepared meanwhile").containsExactly(SUSPECT);
        clock.advance(Duration.ofMillis(301));
        detector.sweep();
        assertThat(detector.failures()).filteredOn(failure -> failure.host().equals(SUSPECT)).singleElement()
                .satisfies(failure -> assertThat(failure.cause()).isEqualTo(DetectionCause.HEARTBEAT_TIMEOUT));
    }

    @Test
    void aHostThatAnswersItsProbeIsNotAnnouncedAsSuspected() throws Exception {
        List<HostId> suspected = new CopyOnWriteArrayList<>();
        checker.onSuspected(suspected::add);
        register(liveControlUrl());
        clock.advance(Duration.ofMillis(100));

        assertThat(suspect()).isEqualTo(Outcome.ANSWERED_PROBE);
        assertThat(suspected).isEmpty();
    }

    @Test
    void aHeartbeatDuringTheCheckKeepsTheHostLiveAndAHeartbeatAfterADeclarationBringsItBack() throws Exception {
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(100));

        var check = checker.suspect(SUSPECT, REPORTER);
        clock.advance(Duration.ofMillis(150));
        hosts.heartbeat(SUSPECT, List.of(), clock.instant());

        assertThat(check.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.HEARTBEAT_ARRIVED);
        assertThat(statusOfSuspect()).isEqualTo(HostStatus.LIVE);
        assertThat(detector.failures()).isEmpty();

        clock.advance(Duration.ofMillis(400));
        assertThat(suspect()).isEqualTo(Outcome.DECLARED_DEAD);
        hosts.heartbeat(SUSPECT, List.of(), clock.instant());
        assertThat(statusOfSuspect()).as("came back").isEqualTo(HostStatus.LIVE);
    }

    @Test
    void whenTrustedARefusedProbeDeclaresTheHostDeadAtOnceWithoutWaitingForAMissedHeartbeat() throws Exception {
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(100));
        try (SuspicionChecker trusting = new SuspicionChecker(detector, new HttpHostProbe(probeClient()), clock,
                MIN_SILENCE, true, true)) {
            assertThat(trusting.suspect(SUSPECT, REPORTER).get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.DECLARED_DEAD);
        }
        assertThat(detector.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.detectionTime()).as("100 ms after its last heartbeat").isEqualTo(Duration.ofMillis(100));
            assertThat(failure.cause()).isEqualTo(DetectionCause.DATA_PLANE_DISCONNECT);
        });
    }

    @Test
    void theProbeTellsARefusedConnectionFromAHostThatAcceptsButDoesNotAnswer() throws Exception {
        HttpHostProbe probe = new HttpHostProbe(probeClient());
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            // accepted by the kernel into the backlog, never read: a stopped or stalled process
            RegisteredHost stalled = RegisteredHost.registered(SUSPECT,
                    URI.create("http://127.0.0.1:" + silent.getLocalPort()), "tcp://127.0.0.1:1", clock.instant());
            assertThat(probe.probe(stalled)).isEqualTo(HostProbe.Result.NO_ANSWER);
        }
        RegisteredHost gone = RegisteredHost.registered(SUSPECT, deadControlUrl(), "tcp://127.0.0.1:1", clock.instant());
        assertThat(probe.probe(gone)).isEqualTo(HostProbe.Result.REFUSED);
        assertThat(probe.answers(gone)).isFalse();
        RegisteredHost live = RegisteredHost.registered(SUSPECT, liveControlUrl(), "tcp://127.0.0.1:1", clock.instant());
        assertThat(probe.probe(live)).isEqualTo(HostProbe.Result.ANSWERED);
    }

    @Test
    void anOperatingSystemConnectTimeoutIsNoAnswerNotARefusal() {
        RegisteredHost host = RegisteredHost.registered(SUSPECT, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:1",
                clock.instant());
        HttpHostProbe timingOut = new HttpHostProbe(RestClient.builder().requestFactory((uri, method) -> {
            throw new ConnectException("Connection timed out");
        }).build());
        HttpHostProbe refusing = new HttpHostProbe(RestClient.builder().requestFactory((uri, method) -> {
            throw new ConnectException(); // the JDK client's refusal carries no message
        }).build());

        assertThat(timingOut.probe(host)).isEqualTo(HostProbe.Result.NO_ANSWER);
        assertThat(refusing.probe(host)).isEqualTo(HostProbe.Result.REFUSED);
    }

    @Test
    void aSuspicionOfAnUnknownOrDeadHostChecksNothing() throws Exception {
        assertThat(suspect()).isEqualTo(Outcome.UNKNOWN_HOST);
        register(deadControlUrl());
        clock.advance(TIMEOUT.plusMillis(1));

        assertThat(suspect()).isEqualTo(Outcome.ALREADY_DEAD);
    }

    @Test
    void switchedOffChecksIgnoreEverySuspicion() throws Exception {
        register(deadControlUrl());
        clock.advance(Duration.ofMillis(500));
        try (SuspicionChecker off = new SuspicionChecker(detector, host -> false, clock, MIN_SILENCE, false)) {
            assertThat(off.suspect(SUSPECT, REPORTER).get(1, TimeUnit.SECONDS)).isEqualTo(Outcome.IGNORED);
        }
        assertThat(statusOfSuspect()).isEqualTo(HostStatus.LIVE);
    }
}
