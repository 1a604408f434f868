package io.steadfast.router.failure;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.router.host.HostRegistry;
import io.steadfast.runtime.plan.HostKind;

/**
 * The gauge {@code steadfast.hosts}: the registered hosts tagged {@code state} (LIVE, DEAD, as the
 * {@link HeartbeatFailureDetector} sees them now) and {@code kind} (PE, VOTER), every combination registered.
 */
public final class HostMeters implements MeterBinder {

    private final HostRegistry hosts;
    private final HeartbeatFailureDetector detector;

    public HostMeters(HostRegistry hosts, HeartbeatFailureDetector detector) {
        this.hosts = hosts;
        this.detector = detector;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (HostStatus state : HostStatus.values()) {
            for (HostKind kind : HostKind.values()) {
                Gauge.builder("steadfast.hosts", () -> count(state, kind))
                        .description("Registered hosts by state and kind").tags("state", state.name(), "kind",
                                kind.name()).register(registry);
            }
        }
    }

    private long count(HostStatus state, HostKind kind) {
        return hosts.all().stream().filter(host -> host.kind() == kind && detector.statusOf(host) == state).count();
    }
}
