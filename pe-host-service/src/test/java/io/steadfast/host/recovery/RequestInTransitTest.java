package io.steadfast.host.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A recovered task measures its catch-up from when the router asked, within what clocks can be trusted. */
class RequestInTransitTest {

    @Test
    void countsTheTimeSinceTheRouterStampedTheRequestWithinBounds() {
        assertThat(LocalRecoveryService.requestInTransit(null)).as("unstamped").isZero();
        assertThat(LocalRecoveryService.requestInTransit(Instant.now().plusSeconds(3))).as("stamped ahead").isZero();
        long oneSecond = LocalRecoveryService.requestInTransit(Instant.now().minusSeconds(1));
        assertThat(oneSecond).isBetween(Duration.ofSeconds(1).toNanos(), Duration.ofSeconds(2).toNanos());
        assertThat(LocalRecoveryService.requestInTransit(Instant.now().minus(Duration.ofHours(1))))
                .as("a clock far off").isEqualTo(LocalRecoveryService.MAX_TRANSIT.toNanos());
    }
}
