package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskRatesTest {

    private static final long SECOND = 1_000_000_000L;

    private final TaskRates rates = new TaskRates();

    @Test
    void measuresRecordsPerSecondBetweenSamples() {
        rates.update("t/op#0", 0, 0, 0);

        TaskRates.Rates rate = rates.update("t/op#0", 2 * SECOND, 4_000, 1_000);

        assertThat(rate.inPerSecond()).isEqualTo(2_000.0);
        assertThat(rate.outPerSecond()).isEqualTo(500.0);
    }

    @Test
    void keepsThePreviousRatesWhenAskedAgainTooSoon() {
        rates.update("t/op#0", 0, 0, 0);
        rates.update("t/op#0", SECOND, 1_000, 1_000);

        TaskRates.Rates soon = rates.update("t/op#0", SECOND + SECOND / 10, 1_900, 1_900);

        assertThat(soon.inPerSecond()).isEqualTo(1_000.0);
    }

    @Test
    void startsAtZeroAndAgainAfterATaskIsForgotten() {
        assertThat(rates.update("t/op#0", 0, 500, 500)).isEqualTo(TaskRates.Rates.NONE);
        rates.forget("t/op#0");

        assertThat(rates.update("t/op#0", 5 * SECOND, 900, 900)).isEqualTo(TaskRates.Rates.NONE);
    }
}
