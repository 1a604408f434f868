package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManualClockTest {

    @Test
    void movesOnlyWhenAdvanced() {
        ManualClock clock = new ManualClock(Instant.ofEpochMilli(1_000));
        long before = clock.millis();

        clock.advance(Duration.ofMillis(250)).advance(Duration.ofSeconds(1));

        assertThat(before).isEqualTo(1_000);
        assertThat(clock.millis()).isEqualTo(2_250);
        assertThat(clock.instant()).isEqualTo(Instant.ofEpochMilli(2_250));
    }

    @Test
    void refusesToGoBack() {
        ManualClock clock = ManualClock.atEpoch();

        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only moves forward");
        assertThat(clock.millis()).isZero();
    }
}
