package io.steadfast.router.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeartbeatFailureDetectorTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofSeconds(1));
    private final HostId host = new HostId("host-a");

    @Test
    void hostIsLiveWithinTheTimeoutAndDeadAfterIt() {
        hosts.register(host, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", clock.instant());

        clock.advance(Duration.ofMillis(1000));
        assertThat(detector.statusOf(hosts.find(host).orElseThrow())).isEqualTo(HostStatus.LIVE);
        clock.advance(Duration.ofMillis(1));
        assertThat(detector.statusOf(hosts.find(host).orElseThrow())).isEqualTo(HostStatus.DEAD);
        assertThat(detector.liveHosts()).isEmpty();
    }

    @Test
    void heartbeatBringsADeadHostBack() {
        hosts.register(host, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", clock.instant());
        clock.advance(Duration.ofSeconds(5));
        detector.sweep();

        hosts.heartbeat(host, List.of(), clock.instant());

        assertThat(detector.liveHosts()).extracting(h -> h.id()).containsExactly(host);
    }

    @Test
    void aNewlyRegisteredHostGetsTheStartupGraceBeforeItIsDeclaredDead() {
        HeartbeatFailureDetector lenient = new HeartbeatFailureDetector(hosts, clock, Duration.ofSeconds(1),
                Duration.ofSeconds(3));
        hosts.register(host, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", clock.instant());

        clock.advance(Duration.ofMillis(2_900));
        assertThat(lenient.statusOf(hosts.find(host).orElseThrow())).as("silent, but just started").isEqualTo(HostStatus.LIVE);
        hosts.heartbeat(host, List.of(), clock.instant());
        clock.advance(Duration.ofMillis(1_100));
        assertThat(lenient.statusOf(hosts.find(host).orElseThrow())).as("past the grace: the timeout applies")
                .isEqualTo(HostStatus.DEAD);
    }

    @Test
    void aRefutableDeclarationIsUndoneByALaterHeartbeat() {
        RegisteredHost registration = registerFromPod("session-1", "pod-uid-1");
        hosts.heartbeat(host, List.of(), clock.instant().plusMillis(10)); // arrived after the evidence was judged

        assertThat(detector.declareDead(host, registration.lastHeartbeat(), DetectionCause.DATA_PLANE_DISCONNECT,
                "a peer lost its connection")).as("it heartbeated since: alive").isFalse();
        assertThat(detector.failures()).isEmpty();
    }

    @Test
    void aDeclarationItsHeartbeatsCannotRefuteHoldsForThatRegistrationWhateverItSends() {
        RegisteredHost registration = registerFromPod("session-1", "pod-uid-1");
        clock.advance(Duration.ofMillis(100));
        hosts.heartbeat(host, List.of(), clock.instant()); // between reading the host and declaring it

        assertThat(detector.declareDeadWhateverItSends(registration, DetectionCause.POD_NOT_READY, "not ready"))
                .isTrue();
        clock.advance(Duration.ofMillis(100));
        hosts.heartbeat(host, List.of(), clock.instant());
        detector.sweep();

        assertThat(detector.statusOf(hosts.find(host).orElseThrow())).as("its process still heartbeats")
                .isEqualTo(HostStatus.DEAD);
        assertThat(detector.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.host()).isEqualTo(host);
            assertThat(failure.cause()).isEqualTo(DetectionCause.POD_NOT_READY);
        });

        registerFromPod("session-2", "pod-uid-1"); // it fenced itself and rejoined empty
        detector.sweep();
        assertThat(detector.liveHosts()).as("a new session is a new registration").extracting(h -> h.id())
                .containsExactly(host);
    }

    @Test
    void aDeclarationAboutAnEarlierRegistrationIsIgnored() {
        RegisteredHost earlier = registerFromPod("session-1", "pod-uid-1");
        registerFromPod("session-1", "pod-uid-2"); // the StatefulSet recreated the pod under the same name

        assertThat(detector.declareDeadWhateverItSends(earlier, DetectionCause.POD_DELETED, "deleted")).isFalse();
        assertThat(detector.liveHosts()).extracting(h -> h.id()).containsExactly(host);
        assertThat(detector.failures()).isEmpty();
    }

    private RegisteredHost registerFromPod(String session, String instance) {
        return hosts.register(host, HostKind.PE, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", session,
                instance, clock.instant());
    }
}
