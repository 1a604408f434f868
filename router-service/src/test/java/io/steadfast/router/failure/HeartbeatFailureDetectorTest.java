package io.steadfast.router.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.host.InMemoryHostRegistry;
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
}
