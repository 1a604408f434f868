package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TaskRatesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MILLI = 1_000_000L;

    private final TaskRates rates = new TaskRates();

    @Test
    void measuresRecordsPerSecondBetweenSamples() {
        rates.update("t/op#0", 0, counted(0, 0));

        TaskRates.Rates rate = rates.update("t/op#0", 2 * SECOND, counted(4_000, 1_000));

        assertThat(rate.inPerSecond()).isEqualTo(2_000.0);
        assertThat(rate.outPerSecond()).isEqualTo(500.0);
    }

    @Test
    void measuresTheMeanLatencyOfTheRecordsTakenInAndTheBusyShareOfTheWindow() {
        rates.update("t/op#0", 0, new TaskRates.Counters(100, 100, 50 * MILLI, 1_000 * MILLI, 0, 0, 0));

        // 400 records more over 2 s, 3,000 ms of residence between them, 500 ms busy
        TaskRates.Rates rate = rates.update("t/op#0", 2 * SECOND,
                new TaskRates.Counters(500, 500, 550 * MILLI, 4_000 * MILLI, 0, 0, 0));

        assertThat(rate.latencyMillis()).isCloseTo(7.5, within(1e-9));
        assertThat(rate.busyFraction()).isCloseTo(0.25, within(1e-9));
    }

    @Test
    void measuresFramesPerSecondAndTheMeanOutputWaitOfTheRecordsSent() {
        rates.update("t/op#0", 0, new TaskRates.Counters(0, 0, 0, 0, 10, 1_000, 2_000 * MILLI));

        // 40 frames and 4,000 records sent over 2 s, which waited 6,000 ms in all
        TaskRates.Rates rate = rates.update("t/op#0", 2 * SECOND,
                new TaskRates.Counters(0, 0, 0, 0, 50, 5_000, 8_000 * MILLI));

        assertThat(rate.framesInPerSecond()).isCloseTo(20.0, within(1e-9));
        assertThat(rate.outputWaitMillis()).isCloseTo(1.5, within(1e-9));
    }

    @Test
    void hasNoLatencyForAWindowWithoutRecords() {
        rates.update("t/op#0", 0, new TaskRates.Counters(100, 100, 50 * MILLI, 1_000 * MILLI, 0, 0, 0));

        TaskRates.Rates idle = rates.update("t/op#0", SECOND, new TaskRates.Counters(100, 100, 50 * MILLI,
                1_000 * MILLI, 0, 0, 0));

        assertThat(idle.latencyMillis()).isNull();
        assertThat(idle.outputWaitMillis()).as("nothing sent, no wait").isNull();
        assertThat(idle.busyFraction()).isZero();
    }

    @Test
    void keepsThePreviousRatesWhenAskedAgainTooSoon() {
        rates.update("t/op#0", 0, counted(0, 0));
        rates.update("t/op#0", SECOND, counted(1_000, 1_000));

        TaskRates.Rates soon = rates.update("t/op#0", SECOND + SECOND / 10, counted(1_900, 1_900));

        assertThat(soon.inPerSecond()).isEqualTo(1_000.0);
    }

    @Test
    void startsAtZeroAndAgainAfterATaskIsForgotten() {
        assertThat(rates.update("t/op#0", 0, counted(500, 500))).isEqualTo(TaskRates.Rates.NONE);
        rates.forget("t/op#0");

        assertThat(rates.update("t/op#0", 5 * SECOND, counted(900, 900))).isEqualTo(TaskRates.Rates.NONE);
    }

    private static TaskRates.Counters counted(long in, long out) {
        return new TaskRates.Counters(in, out, 0, 0, 0, 0, 0);
    }
}
