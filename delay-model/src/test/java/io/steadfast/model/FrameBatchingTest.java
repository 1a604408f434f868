package io.steadfast.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** With the hosts' default batching: a 20 ms linger period, shortened to 1 ms once a frame holds 64 records. */
class FrameBatchingTest {

    private final FrameBatching batching = new FrameBatching(Duration.ofMillis(20), Duration.ofMillis(1), 64);

    @Test
    void aSlowChannelsRecordsWaitHalfALingerPeriod() {
        assertThat(batching.meanLingerSeconds(0)).isCloseTo(0.010, within(1e-12));
        assertThat(batching.meanLingerSeconds(1_000)).as("64 records take 64 ms, longer than the period")
                .isCloseTo(0.010, within(1e-12));
    }

    @Test
    void aChannelThatFillsAFrameSoonerWaitsHalfTheFillTime() {
        assertThat(batching.meanLingerSeconds(10_000)).as("64 records in 6.4 ms").isCloseTo(0.0032, within(1e-12));
    }

    @Test
    void aFastChannelWaitsHalfTheShortLingerAtLeast() {
        assertThat(batching.meanLingerSeconds(1_000_000)).isCloseTo(0.0005, within(1e-12));
    }
}
