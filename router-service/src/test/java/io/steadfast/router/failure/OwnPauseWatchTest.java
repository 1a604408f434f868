package io.steadfast.router.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The router's own pauses, seen through a hand-ticked watch: the clock and the monotonic clock move together. */
class OwnPauseWatchTest {

    private static final Duration TIMEOUT = Duration.ofMillis(800);
    private static final Duration THRESHOLD = TIMEOUT.dividedBy(2);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final OwnPauseWatch watch = OwnPauseWatch.tickedByHand(clock, nanos::get, THRESHOLD);
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, TIMEOUT,
            Duration.ZERO, watch);

    /** Time passes for both clocks, the watch ticking every 50 ms as its thread does. */
    private void run(Duration duration) {
        for (long ms = 0; ms < duration.toMillis(); ms += 50) {
            pause(Duration.ofMillis(Math.min(50, duration.toMillis() - ms)));
            watch.tick();
        }
    }

    /** Time passes for both clocks and the router does nothing. */
    private void pause(Duration duration) {
        clock.advance(duration);
        nanos.addAndGet(duration.toNanos());
    }

    private HostStatus status(HostId host) {
        return detector.statusOf(hosts.find(host).orElseThrow());
    }

    private HostId register(String id) {
        HostId host = new HostId(id);
        hosts.register(host, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", clock.instant());
        return host;
    }

    @Test
    void aRouterThatRunsJudgesHostsByTheirSilenceAlone() {
        HostId host = register("a");
        run(Duration.ofMillis(750));
        assertThat(status(host)).isEqualTo(HostStatus.LIVE);
        run(Duration.ofMillis(100));
        assertThat(status(host)).isEqualTo(HostStatus.DEAD);
        assertThat(watch.resumedAt()).isEqualTo(Instant.MIN);
    }

    @Test
    void afterItsOwnPauseTheRouterGivesEveryHostOneTimeoutFromItsResumption() {
        HostId host = register("a");
        run(Duration.ofMillis(200));
        pause(Duration.ofSeconds(3));
        Instant resumed = clock.instant();

        assertThat(status(host)).as("read before the watch's thread ran again").isEqualTo(HostStatus.LIVE);
        assertThat(detector.liveHosts()).hasSize(1);
        run(Duration.ofMillis(750));
        assertThat(status(host)).as("still inside one timeout from the resumption").isEqualTo(HostStatus.LIVE);
        assertThat(watch.resumedAt()).isEqualTo(resumed);
        run(Duration.ofMillis(100));
        assertThat(status(host)).as("silent for a whole timeout of the router's running time").isEqualTo(HostStatus.DEAD);
    }

    @Test
    void theWatchsThreadNoticesAPauseBeforeAnyReader() {
        HostId host = register("a");
        pause(Duration.ofSeconds(2));
        watch.tick();

        assertThat(watch.resumedAt()).isEqualTo(clock.instant());
        detector.sweep();
        assertThat(detector.failures()).isEmpty();
        assertThat(status(host)).isEqualTo(HostStatus.LIVE);
    }

    @Test
    void aHostThatHeartbeatsAfterThePauseStaysLiveAndOneThatStaysSilentIsCaught() {
        HostId talking = register("talking");
        HostId silent = register("silent");
        pause(Duration.ofSeconds(5));
        detector.sweep();
        hosts.heartbeat(talking, List.of(), clock.instant());

        for (int i = 0; i < 20; i++) {
            run(Duration.ofMillis(200));
            hosts.heartbeat(talking, List.of(), clock.instant());
            detector.sweep();
        }

        assertThat(status(talking)).isEqualTo(HostStatus.LIVE);
        assertThat(detector.failures()).extracting(DetectedFailure::host).containsExactly(silent);
    }

    @Test
    void aPauseShorterThanTheThresholdIsNoPause() {
        register("a");
        pause(THRESHOLD);
        watch.tick();
        assertThat(watch.resumedAt()).isEqualTo(Instant.MIN);
    }

    @Test
    void aHostDeclaredDeadOnOtherEvidenceStaysDeadThroughAPause() {
        HostId host = register("a");
        Instant lastHeartbeat = hosts.find(host).orElseThrow().lastHeartbeat();
        pause(Duration.ofSeconds(2));

        assertThat(detector.declareDead(host, lastHeartbeat, DetectionCause.DATA_PLANE_DISCONNECT, "refused"))
                .isTrue();
        assertThat(status(host)).isEqualTo(HostStatus.DEAD);
    }
}
