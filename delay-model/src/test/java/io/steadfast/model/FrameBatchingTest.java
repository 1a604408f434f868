package io.steadfast.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
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

    @Test
    void aMeasuredWaitReplacesTheModelsOnItsChannelsWeightedByTheirRates() {
        // wc: source → count#0, count#1 (key) → sink; the source sends 10,000 records/s, so 5,000 a channel
        ExecutionPlan plan = Plans.wordCount121();
        Map<TaskId, Double> out = Map.of(Plans.task("wc/source#0"), 10_000.0, Plans.task("wc/count#0"), 3_000.0,
                Plans.task("wc/count#1"), 1_000.0);
        Map<TaskId, Double> measured = Map.of(Plans.task("wc/count#0"), 0.0008, Plans.task("wc/count#1"), 0.0020);

        ChannelCosts costs = batching.channelCosts(plan, task -> out.getOrDefault(task, 0.0),
                task -> measured.containsKey(task) ? OptionalDouble.of(measured.get(task)) : OptionalDouble.empty(),
                0.0002);

        // source → count, unmeasured: 64 records fill in 12.8 ms at 5,000/s, so half of that
        assertThat(costs.between(Plans.task("wc/source#0"), Plans.task("wc/count#1")).meanLingerSeconds())
                .isCloseTo(0.0064, within(1e-12));
        // count → sink: (3,000 × 0.8 ms + 1,000 × 2.0 ms) / 4,000 = 1.1 ms, for either channel
        ChannelCost countToSink = costs.between(Plans.task("wc/count#0"), Plans.task("wc/sink#0"));
        assertThat(countToSink.meanLingerSeconds()).isCloseTo(0.0011, within(1e-12));
        assertThat(countToSink.seconds()).isCloseTo(0.0013, within(1e-12));
    }
}
