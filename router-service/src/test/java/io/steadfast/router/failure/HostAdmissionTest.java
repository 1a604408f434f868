package io.steadfast.router.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Host sessions end for good when the router declares them DEAD; a host rejoins only with a new one, empty. */
class HostAdmissionTest {

    private static final Duration TIMEOUT = Duration.ofMillis(800);
    private static final HostId HOST = new HostId("host-a");
    private static final URI CONTROL = URI.create("http://127.0.0.1:1");
    private static final String DATA = "tcp://127.0.0.1:2";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, TIMEOUT);
    private final Set<HostId> beingRecovered = ConcurrentHashMap.newKeySet();
    private final HostAdmission admission = new HostAdmission(hosts, detector, clock, beingRecovered::contains);

    @Test
    void aHeartbeatOfASessionDeclaredDeadIsFencedForGoodAndLeavesTheHostDead() {
        assertThat(register("s1")).isInstanceOf(HostAdmission.Admitted.class);
        clock.advance(TIMEOUT.plusMillis(1));
        detector.sweep();

        assertThat(admission.heartbeat(HOST, "s1", List.of())).isInstanceOf(HostAdmission.Fenced.class);
        clock.advance(Duration.ofMillis(100));
        assertThat(admission.heartbeat(HOST, "s1", List.of())).as("for good").isInstanceOf(HostAdmission.Fenced.class);
        assertThat(register("s1")).as("the same session cannot register again")
                .isInstanceOf(HostAdmission.Fenced.class);
        assertThat(detector.statusOf(hosts.find(HOST).orElseThrow())).isEqualTo(HostStatus.DEAD);
    }

    @Test
    void aLateHeartbeatIsFencedEvenBeforeTheDetectorSweptTheHostDead() {
        register("s1");
        clock.advance(TIMEOUT.plusMillis(50)); // no sweep yet: the host went DEAD by the clock

        assertThat(admission.heartbeat(HOST, "s1", List.of())).isInstanceOf(HostAdmission.Fenced.class);
        detector.sweep();
        assertThat(detector.failures()).as("the failure is still detected and recovered").singleElement()
                .satisfies(failure -> assertThat(failure.host()).isEqualTo(HOST));
    }

    @Test
    void aHeartbeatWithinTheTimeoutIsTakenAndOneNamingAnotherSessionIsFenced() {
        register("s1");
        clock.advance(TIMEOUT);

        assertThat(admission.heartbeat(HOST, "s1", List.of())).isInstanceOf(HostAdmission.Admitted.class);
        assertThat(admission.heartbeat(HOST, "s0", List.of())).isInstanceOf(HostAdmission.Fenced.class);
        assertThat(admission.heartbeat(new HostId("never-registered"), "s9", List.of()))
                .isInstanceOf(HostAdmission.Unknown.class);
        assertThat(detector.statusOf(hosts.find(HOST).orElseThrow())).isEqualTo(HostStatus.LIVE);
    }

    @Test
    void aNewSessionEndsTheLiveOneAtOnceAndIsAdmittedOnceItsFailureWasHandled() {
        List<DetectedFailure> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        detector.onFailure(told::add);
        detector.onFailure(failure -> beingRecovered.add(failure.host()));
        register("s1");
        clock.advance(Duration.ofMillis(100));

        assertThat(register("s2")).as("its old tasks are still being recovered")
                .isInstanceOf(HostAdmission.RejoinPending.class);
        assertThat(told).singleElement().satisfies(failure ->
                assertThat(failure.cause()).isEqualTo(DetectionCause.HOST_REJOINED));
        assertThat(admission.heartbeat(HOST, "s1", List.of())).as("the old session is over")
                .isInstanceOf(HostAdmission.Fenced.class);

        beingRecovered.remove(HOST);
        assertThat(register("s2")).isInstanceOf(HostAdmission.Admitted.class);
        assertThat(admission.heartbeat(HOST, "s2", List.of())).isInstanceOf(HostAdmission.Admitted.class);
        assertThat(detector.liveHosts()).extracting(host -> host.session()).containsExactly("s2");
        assertThat(told).as("one failure for the old session").hasSize(1);
    }

    @Test
    void theSameSessionRegisteringAgainWhileLiveIsTakenAsARefresh() {
        register("s1");
        clock.advance(Duration.ofMillis(300));

        assertThat(register("s1")).isInstanceOf(HostAdmission.Admitted.class);
        assertThat(detector.failures()).isEmpty();
        assertThat(detector.liveHosts()).extracting(host -> host.session()).containsExactly("s1");
    }

    /** Registers {@link #HOST}, a PE host, with {@code session}. */
    private HostAdmission.Verdict register(String session) {
        return admission.register(HOST, HostKind.PE, CONTROL, DATA, session);
    }

    @Test
    void keepsTheKindAHostRegistersWithAndTheKindOfItsLatestRegistration() {
        admission.register(HOST, HostKind.VOTER, CONTROL, DATA, "s1");
        assertThat(hosts.find(HOST)).hasValueSatisfying(host -> assertThat(host.kind()).isEqualTo(HostKind.VOTER));

        register("s1");

        assertThat(hosts.find(HOST)).hasValueSatisfying(host -> assertThat(host.kind()).isEqualTo(HostKind.PE));
    }
}
