package io.steadfast.dashboard.health;

import io.steadfast.dashboard.router.RouterClient;
import io.steadfast.dashboard.router.RouterRequestException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health contributor {@code router}: UP if the router's own {@code /actuator/health} answered UP within
 * {@code maxAge}, else DOWN with the router's URL and the error. An answer is reused for {@code maxAge}, so that
 * frequent probes do not each call the router.
 *
 * <p>It belongs in the readiness group, never in liveness: a dashboard whose router is down is alive and shows a
 * banner; restarting it would not bring the router back.
 */
public class RouterHealthIndicator implements HealthIndicator {

    private final RouterClient router;
    private final Clock clock;
    private final Duration maxAge;
    private volatile @Nullable Probe last;
    private volatile @Nullable Instant lastUpAt;

    public RouterHealthIndicator(RouterClient router, Clock clock, Duration maxAge) {
        this.router = router;
        this.clock = clock;
        this.maxAge = maxAge;
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        Probe probe = last;
        if (probe == null || !now.isBefore(probe.checkedAt().plus(maxAge))) {
            probe = probe(now);
            last = probe;
        }
        Health.Builder health = probe.error() == null ? Health.up() : Health.down().withDetail("error", probe.error());
        health.withDetail("url", router.baseUrl().toString()).withDetail("checkedAt", probe.checkedAt().toString());
        Instant upAt = lastUpAt;
        if (upAt != null) {
            health.withDetail("lastUpAt", upAt.toString());
        }
        return health.build();
    }

    private Probe probe(Instant now) {
        try {
            String status = router.healthStatus();
            if ("UP".equals(status)) {
                lastUpAt = now;
                return new Probe(now, null);
            }
            return new Probe(now, "The router reports its health as " + status + "; see "
                    + router.baseUrl() + "/actuator/health and the router's log");
        } catch (RouterRequestException e) {
            return new Probe(now, e.getMessage());
        }
    }

    private record Probe(Instant checkedAt, @Nullable String error) {
    }
}
