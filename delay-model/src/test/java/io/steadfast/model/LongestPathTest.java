package io.steadfast.model;

import static io.steadfast.model.Plans.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.OperatorId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End-to-end delays over real plans, by hand. M/M/1 throughout, with loads chosen so that each sojourn is round:
 * W = E[S] / (1 − ρ), so ρ = 0.5 doubles the service time and ρ = 0.8 multiplies it by five.
 */
class LongestPathTest {

    private static final double CLOSE = 1e-12;
    /** 2 ms linger + 0.5 ms network on every channel unless an edge says otherwise. */
    private static final ChannelCosts CHANNELS = ChannelCosts.uniform(new ChannelCost(0.002, 0.0005));
    private static final double CHANNEL = 0.002 + 0.0005;

    private static TopologyDelay delayOf(ExecutionPlan plan, ChannelCosts costs, TaskLoad... loads) {
        return LongestPath.of(plan, TaskLoads.of(plan, List.of(loads)), costs, new MM1());
    }

    @Test
    void addsSojournsAndChannelsAlongAChain() {
        TopologyDelay delay = delayOf(Plans.chain(), CHANNELS,
                TaskLoad.of(task("t/source#0"), 500, 0.001),   // ρ = 0.5: W = 0.001 / 0.5 = 0.002
                TaskLoad.of(task("t/map#0"), 500, 0.0016),     // ρ = 0.8: W = 0.0016 / 0.2 = 0.008
                TaskLoad.of(task("t/sink#0"), 500, 0.001));    // ρ = 0.5: W = 0.002

        double endToEnd = 0.002 + CHANNEL + 0.008 + CHANNEL + 0.002; // 0.017 s
        assertThat(delay.endToEndSeconds().getAsDouble()).isCloseTo(endToEnd, within(CLOSE));
        assertThat(delay.meanEndToEndSeconds().getAsDouble()).isCloseTo(endToEnd, within(CLOSE));
        assertThat(delay.criticalPath()).extracting(PathStep::task)
                .containsExactly(task("t/source#0"), task("t/map#0"), task("t/sink#0"));
        PathStep map = delay.criticalPath().get(1);
        assertThat(map.channelSeconds()).isCloseTo(CHANNEL, within(CLOSE));
        assertThat(map.sojournSeconds()).isCloseTo(0.008, within(CLOSE));
        assertThat(map.completionSeconds()).isCloseTo(0.002 + CHANNEL + 0.008, within(CLOSE));
        assertThat(delay.criticalPath().get(0).channelSeconds()).isZero();
        assertThat(delay.saturatedTasks()).isEmpty();
    }

    @Test
    void givesEachTaskItsDelayToTheSinks() {
        TopologyDelay delay = delayOf(Plans.chain(), CHANNELS, TaskLoad.of(task("t/source#0"), 500, 0.001),
                TaskLoad.of(task("t/map#0"), 500, 0.0016), TaskLoad.of(task("t/sink#0"), 500, 0.001));

        // from a record's arrival at map: its own 0.008 + channel + sink 0.002
        assertThat(delay.timing(task("t/map#0")).toSinkSeconds().getAsDouble())
                .isCloseTo(0.008 + CHANNEL + 0.002, within(CLOSE));
        assertThat(delay.timing(task("t/sink#0")).toSinkSeconds().getAsDouble()).isCloseTo(0.002, within(CLOSE));
        assertThat(delay.timing(task("t/source#0")).toSinkSeconds().getAsDouble())
                .isCloseTo(delay.endToEndSeconds().getAsDouble(), within(CLOSE));
    }

    @Test
    void takesTheSlowerBranchOfADiamondAndNamesItsPath() {
        TopologyDelay delay = delayOf(Plans.diamond(), CHANNELS,
                TaskLoad.of(task("t/source#0"), 500, 0.001),   // W = 0.002
                TaskLoad.of(task("t/a#0"), 500, 0.0016),       // W = 0.008
                TaskLoad.of(task("t/b#0"), 500, 0.001),        // W = 0.002
                TaskLoad.of(task("t/join#0"), 1000, 0.0005));  // both branches in: ρ = 0.5, W = 0.001

        double viaA = 0.002 + CHANNEL + 0.008 + CHANNEL;      // 0.015: a record reaches join through a
        double viaB = 0.002 + CHANNEL + 0.002 + CHANNEL;      // 0.009: through b
        assertThat(delay.endToEndSeconds().getAsDouble()).isCloseTo(Math.max(viaA, viaB) + 0.001, within(CLOSE));
        assertThat(delay.criticalTasks()).containsExactly(task("t/source#0"), task("t/a#0"), task("t/join#0"));
    }

    @Test
    void waitsForTheLatestInputOfATaskThatReadsTwoSources() {
        ExecutionPlan plan = Plans.fromJson("""
                {'id': 't', 'operators': [
                  {'id': 's1', 'type': 'generator', 'parallelism': 1},
                  {'id': 's2', 'type': 'generator', 'parallelism': 1},
                  {'id': 'join', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 's1'}, {'from': 's2'}]}]}
                """);
        TaskLoad s1 = TaskLoad.of(task("t/s1#0"), 500, 0.001);      // W = 0.002
        TaskLoad s2 = TaskLoad.of(task("t/s2#0"), 500, 0.0016);     // W = 0.008
        TaskLoad join = TaskLoad.of(task("t/join#0"), 1000, 0.0005); // W = 0.001

        TopologyDelay uniform = delayOf(plan, CHANNELS, s1, s2, join);
        // s1 arrives at 0.002 + 0.0025 = 0.0045, s2 at 0.008 + 0.0025 = 0.0105: s2 decides
        assertThat(uniform.endToEndSeconds().getAsDouble()).isCloseTo(0.0105 + 0.001, within(CLOSE));
        assertThat(uniform.criticalTasks()).containsExactly(task("t/s2#0"), task("t/join#0"));

        ChannelCosts slowLink = CHANNELS.withEdge(new OperatorId("s1"), new OperatorId("join"),
                new ChannelCost(0.002, 0.010));
        TopologyDelay overridden = delayOf(plan, slowLink, s1, s2, join);
        // now s1 arrives at 0.002 + (0.002 + 0.010) = 0.014, later than s2's 0.0105
        assertThat(overridden.endToEndSeconds().getAsDouble()).isCloseTo(0.014 + 0.001, within(CLOSE));
        assertThat(overridden.criticalTasks()).containsExactly(task("t/s1#0"), task("t/join#0"));
        assertThat(overridden.criticalPath().get(1).channelSeconds()).isCloseTo(0.012, within(CLOSE));
    }

    @Test
    void leavesTheEndToEndUndefinedWhenABranchSaturatesAndNamesTheTask() {
        TopologyDelay delay = delayOf(Plans.diamond(), CHANNELS,
                TaskLoad.of(task("t/source#0"), 500, 0.001),
                TaskLoad.of(task("t/a#0"), 500, 0.0016),
                TaskLoad.of(task("t/b#0"), 500, 0.0024),       // ρ = 1.2
                TaskLoad.of(task("t/join#0"), 1000, 0.0005));

        assertThat(delay.endToEndSeconds()).isEmpty();
        assertThat(delay.meanEndToEndSeconds()).isEmpty();
        assertThat(delay.criticalPath()).isEmpty();
        assertThat(delay.saturatedTasks()).containsExactly(task("t/b#0"));
        assertThat(delay.timing(task("t/a#0")).completionSeconds().getAsDouble())
                .isCloseTo(0.002 + CHANNEL + 0.008, within(CLOSE));
        assertThat(delay.timing(task("t/b#0")).completionSeconds()).isEmpty();
        assertThat(delay.timing(task("t/join#0")).completionSeconds()).isEmpty();
        // downstream of a, nothing saturates; upstream of b, something does
        assertThat(delay.timing(task("t/a#0")).toSinkSeconds().getAsDouble())
                .isCloseTo(0.008 + CHANNEL + 0.001, within(CLOSE));
        assertThat(delay.timing(task("t/source#0")).toSinkSeconds()).isEmpty();
    }

    @Test
    void computesEverySubtaskOfAParallelOperatorOnItsOwn() {
        // examples/word-count.json: source ×2 → count ×2 → sink ×1, by key, so every count reads both sources
        ExecutionPlan plan = Plans.example("word-count.json");
        TopologyDelay delay = delayOf(plan, CHANNELS,
                TaskLoad.of(task("word-count/source#0"), 500, 0.001),   // W = 0.002
                TaskLoad.of(task("word-count/source#1"), 500, 0.0016),  // W = 0.008
                TaskLoad.of(task("word-count/count#0"), 750, 0.001),    // ρ = 0.75: W = 0.001 / 0.25 = 0.004
                TaskLoad.of(task("word-count/count#1"), 250, 0.001),    // ρ = 0.25: W = 0.001 / 0.75
                TaskLoad.of(task("word-count/sink#0"), 1000, 0.0005));  // W = 0.001

        double latestSource = Math.max(0.002, 0.008) + CHANNEL;          // source#1, for both counts
        double count0 = latestSource + 0.004;                             // 0.0145
        double count1 = latestSource + 0.001 / 0.75;                      // 0.01183...
        assertThat(delay.timing(task("word-count/count#0")).completionSeconds().getAsDouble())
                .isCloseTo(count0, within(CLOSE));
        assertThat(delay.timing(task("word-count/count#1")).completionSeconds().getAsDouble())
                .isCloseTo(count1, within(CLOSE));
        assertThat(delay.endToEndSeconds().getAsDouble())
                .isCloseTo(Math.max(count0, count1) + CHANNEL + 0.001, within(CLOSE)); // 0.018
        assertThat(delay.criticalTasks()).containsExactly(task("word-count/source#1"), task("word-count/count#0"),
                task("word-count/sink#0"));
    }

    @Test
    void weighsTheSinksByTheirArrivalRatesForTheMean() {
        ExecutionPlan plan = Plans.fromJson("""
                {'id': 't', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 1},
                  {'id': 'a', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'sinkA', 'type': 'log-sink', 'parallelism': 1, 'inputs': [{'from': 'a'}]},
                  {'id': 'sinkB', 'type': 'log-sink', 'parallelism': 1, 'inputs': [{'from': 'source'}]}]}
                """);
        TopologyDelay delay = delayOf(plan, CHANNELS,
                TaskLoad.of(task("t/source#0"), 1000, 0.0005),  // W = 0.001
                TaskLoad.of(task("t/a#0"), 750, 0.001),         // W = 0.004
                TaskLoad.of(task("t/sinkA#0"), 750, 0.0005),    // ρ = 0.375: W = 0.0005 / 0.625 = 0.0008
                TaskLoad.of(task("t/sinkB#0"), 250, 0.001));    // ρ = 0.25: W = 0.001 / 0.75

        double sinkA = 0.001 + CHANNEL + 0.004 + CHANNEL + 0.0008;   // 0.0108
        double sinkB = 0.001 + CHANNEL + 0.001 / 0.75;               // 0.00483...
        assertThat(delay.endToEndSeconds().getAsDouble()).isCloseTo(sinkA, within(CLOSE));
        assertThat(delay.meanEndToEndSeconds().getAsDouble())
                .isCloseTo((750 * sinkA + 250 * sinkB) / (750 + 250), within(CLOSE));
    }

    @Test
    void hasNoMeanWhenNoRecordsReachASink() {
        TopologyDelay delay = delayOf(Plans.chain(), CHANNELS, TaskLoad.of(task("t/source#0"), 0, 0.001),
                TaskLoad.of(task("t/map#0"), 0, 0.001), TaskLoad.of(task("t/sink#0"), 0, 0.001));

        // idle tasks still take their service time: 3 × 0.001 + 2 channels
        assertThat(delay.endToEndSeconds().getAsDouble()).isCloseTo(0.003 + 2 * CHANNEL, within(CLOSE));
        assertThat(delay.meanEndToEndSeconds()).isEmpty();
    }

    @Test
    void usesTheGivenQueueingModelForEveryTask() {
        ExecutionPlan plan = Plans.chain();
        TaskLoads loads = TaskLoads.of(plan, List.of(
                TaskLoad.of(task("t/source#0"), 500, 0.001).withScv(1, 0),    // (1+0)/2 × 1 × 0.001 = 0.0005 wait
                TaskLoad.of(task("t/map#0"), 500, 0.0016).withScv(1, 0),      // (1+0)/2 × 4 × 0.0016 = 0.0032 wait
                TaskLoad.of(task("t/sink#0"), 500, 0.001).withScv(1, 0)));    // 0.0005 wait

        TopologyDelay delay = LongestPath.of(plan, loads, CHANNELS, new KingmanGG1());

        double endToEnd = (0.0005 + 0.001) + CHANNEL + (0.0032 + 0.0016) + CHANNEL + (0.0005 + 0.001);
        assertThat(delay.endToEndSeconds().getAsDouble()).isCloseTo(endToEnd, within(CLOSE));
    }
}
