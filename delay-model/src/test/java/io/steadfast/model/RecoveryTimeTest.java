package io.steadfast.model;

import static io.steadfast.model.Plans.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LOCAL and GLOBAL recovery times of a word count (source : count : sink = 1 : 2 : 1) on three hosts, by hand.
 * M/M/1 throughout; 1.5 ms on every channel.
 */
class RecoveryTimeTest {

    private static final double CLOSE = 1e-9;
    private static final HostId H1 = new HostId("h1");
    private static final HostId H2 = new HostId("h2");
    private static final double CHANNEL = 0.001 + 0.0005;

    private static final ExecutionPlan PLAN = Plans.wordCount121();

    /** Detection 0.2 s; restart 0.05 s + 0.01 s a task; 100 MB/s + 5 ms a fetch; failure 0.5 s after a checkpoint. */
    private static RecoverySettings settings(RestoreOrder order) {
        return new RecoverySettings(0.2, new RestartCost(0.05, 0.01), new RestoreCost(1e8, 0.005, order),
                CheckpointTiming.measured(1.0, 0.05, 0.5), 1e-6);
    }

    private static RecoveryInputs inputs(Map<TaskId, HostId> placement,
                                         RecoverySettings settings, TaskLoad... loads) {
        TaskLoads taskLoads = TaskLoads.of(PLAN, List.of(loads));
        TopologyDelay delay = LongestPath.of(PLAN, taskLoads, ChannelCosts.uniform(new ChannelCost(0.001, 0.0005)),
                new MM1());
        return new RecoveryInputs(PLAN, taskLoads, Placement.of(PLAN, placement), settings, delay);
    }

    /** Small state and logs: source and sink on h1, a count on each of h2 and h3. */
    private static RecoveryInputs smallLogs() {
        return inputs(Plans.placement("wc/source#0", "h1", "wc/count#0", "h2", "wc/count#1", "h3", "wc/sink#0", "h1"),
                settings(RestoreOrder.PER_HOST),
                // ρ = 0.2, W = 0.0001 / 0.8 = 0.000125
                TaskLoad.of(task("wc/source#0"), 2000, 0.0001).withState(new TaskState(1_000, 1_000)),
                // ρ = 0.5, W = 0.001; 20 MB of counts; 1,000/s × 0.5 s since the checkpoint logged
                TaskLoad.of(task("wc/count#0"), 1000, 0.0005).withState(new TaskState(20_000_000, 500)),
                // ρ = 0.4, W = 0.0004 / 0.6
                TaskLoad.of(task("wc/count#1"), 1000, 0.0004).withState(new TaskState(20_000_000, 500)),
                // ρ = 0.2, W = 0.000125
                TaskLoad.of(task("wc/sink#0"), 2000, 0.0001).withState(new TaskState(1_000_000, 0)));
    }

    @Test
    void globalRecoveryRestoresAndReprocessesEveryTask() {
        RecoveryPrediction global = new GlobalRecoveryTime(smallLogs()).ifLost(H2);

        // placed anew on h1 and h3: h1 keeps source and sink and takes count#0; h3 keeps count#1; each host deploys
        // its own tasks, in parallel: h1's three take longest
        double restart = 0.05 + 3 * 0.01;                                         // 0.08
        double h1 = (0.005 + 1_000 / 1e8) + (0.005 + 1_000_000 / 1e8) + (0.005 + 20_000_000 / 1e8); // 0.22501
        double h3 = 0.005 + 20_000_000 / 1e8;                                    // 0.205
        double restore = Math.max(h1, h3);
        double backlog = 0.5 + 0.2 + restart + restore;                          // T = 1.00501 s
        double drain = backlog * 0.5 / (1 - 0.5);                                // count#0, the busiest
        double endToEnd = 0.000125 + CHANNEL + 0.001 + CHANNEL + 0.000125;       // 0.00425
        assertThat(global.mode()).isEqualTo(RecoveryMode.GLOBAL);
        assertThat(global.lostTasks()).containsExactly(task("wc/count#0"));
        assertThat(global.terms()).extracting(Term::name)
                .containsExactly("detection", "restart", "restore", "catch-up");
        assertThat(global.term(Term.DETECTION).seconds().getAsDouble()).isEqualTo(0.2);
        assertThat(global.term(Term.RESTART).seconds().getAsDouble()).isCloseTo(restart, within(CLOSE));
        assertThat(global.term(Term.RESTORE).seconds().getAsDouble()).isCloseTo(restore, within(CLOSE));
        assertThat(global.catchUpSeconds().getAsDouble()).isCloseTo(drain + endToEnd, within(CLOSE));
        assertThat(global.totalSeconds().getAsDouble())
                .isCloseTo(0.2 + restart + restore + drain + endToEnd, within(CLOSE));   // 1.51427 s
        assertThat(global.reprocessedRecords()).isCloseTo((2000 + 1000 + 1000 + 2000) * backlog, within(CLOSE));
        assertThat(global.term(Term.RESTORE).explanation()).contains("slowest h1 with 3 tasks");
        assertThat(global.term(Term.CATCH_UP).explanation()).contains("slowest wc/count#0 at ρ = 0.50");
    }

    @Test
    void aGlobalCatchUpIsSeenNoSoonerThanTheRouterCanSeeIt() {
        RecoveryInputs seenLate = inputs(Plans.placement("wc/source#0", "h1", "wc/count#0", "h2", "wc/count#1", "h3",
                        "wc/sink#0", "h1"), settings(RestoreOrder.PER_HOST).withGlobalCatchUpSeenAfter(3.0),
                TaskLoad.of(task("wc/source#0"), 2000, 0.0001), TaskLoad.of(task("wc/count#0"), 1000, 0.0005),
                TaskLoad.of(task("wc/count#1"), 1000, 0.0004), TaskLoad.of(task("wc/sink#0"), 2000, 0.0001));

        RecoveryPrediction global = new GlobalRecoveryTime(seenLate).ifLost(H2);
        RecoveryPrediction local = new LocalRecoveryTime(seenLate).ifLost(H2);

        // drained in about a second (T ≈ 0.8 s at ρ = 0.5), but seen only 3 s after the redeployment
        assertThat(global.catchUpSeconds().getAsDouble()).isEqualTo(3.0);
        assertThat(global.term(Term.CATCH_UP).explanation()).contains("the router sees it only 3.000 s after");
        assertThat(local.catchUpSeconds().getAsDouble()).as("the recovered tasks measure their own catch-up")
                .isLessThan(3.0);
    }

    @Test
    void aGlobalRestartPaysItsExtraRoundOfCallsWhereALocalOneDoesNot() {
        RecoverySettings base = settings(RestoreOrder.PER_HOST);
        RecoverySettings withExtra = new RecoverySettings(base.detectionSeconds(), new RestartCost(0.05, 0.01, 0.03),
                base.restore(), base.checkpoint(), base.skipSecondsPerRecord());
        RecoveryInputs inputs = inputs(Plans.placement("wc/source#0", "h1", "wc/count#0", "h2", "wc/count#1", "h3",
                        "wc/sink#0", "h1"), withExtra,
                TaskLoad.of(task("wc/source#0"), 2000, 0.0001), TaskLoad.of(task("wc/count#0"), 1000, 0.0005),
                TaskLoad.of(task("wc/count#1"), 1000, 0.0004), TaskLoad.of(task("wc/sink#0"), 2000, 0.0001));

        // h1 deploys source, sink and the lost count#0: the busiest of the hosts deploying in parallel
        assertThat(new GlobalRecoveryTime(inputs).ifLost(H2).term(Term.RESTART).seconds().getAsDouble())
                .isCloseTo(0.05 + 0.03 + 3 * 0.01, within(CLOSE));
        assertThat(new LocalRecoveryTime(inputs).ifLost(H2).term(Term.RESTART).seconds().getAsDouble())
                .isCloseTo(0.05 + 0.01, within(CLOSE));
    }

    @Test
    void localRecoveryRestoresAndReplaysOnlyTheLostTask() {
        RecoveryPrediction local = new LocalRecoveryTime(smallLogs()).ifLost(H2);

        double restart = 0.05 + 0.01;
        double restore = 0.005 + 20_000_000 / 1e8;                              // 0.205
        double backlog = 0.5 + 0.2 + restart + restore;                         // T = 0.965 s
        double drain = backlog * 0.5 / (1 - 0.5);                               // 0.965 s
        double dedupe = 500 * 1e-6 / (1 - 0.2);                                 // the sink drops 500 records
        double toSinks = 0.001 + CHANNEL + 0.000125;                            // count#0, channel, sink
        assertThat(local.term(Term.RESTART).seconds().getAsDouble()).isCloseTo(restart, within(CLOSE));
        assertThat(local.term(Term.RESTORE).seconds().getAsDouble()).isCloseTo(restore, within(CLOSE));
        assertThat(local.catchUpSeconds().getAsDouble()).isCloseTo(Math.max(drain, dedupe) + toSinks, within(CLOSE));
        assertThat(local.totalSeconds().getAsDouble())
                .isCloseTo(0.2 + restart + restore + drain + toSinks, within(CLOSE));    // 1.432625 s
        assertThat(local.reprocessedRecords()).isCloseTo(1000 * backlog, within(CLOSE)); // 965 records replayed
        assertThat(local.term(Term.CATCH_UP).explanation()).contains("965 records in all");
    }

    @Test
    void choosesLocalWhenTheLostTasksHaveLittleToReplay() {
        RecoveryInputs inputs = smallLogs();

        ModeChoice choice = ModeChoice.between(new LocalRecoveryTime(inputs).ifLost(H2),
                new GlobalRecoveryTime(inputs).ifLost(H2));

        assertThat(choice.faster()).contains(RecoveryMode.LOCAL);
        assertThat(choice.reason()).isEqualTo("LOCAL: 1.433 s against GLOBAL 1.514 s; LOCAL replays 965 records to"
                + " 1 task from the upstream logs, GLOBAL processes 6,030 again in all tasks");
    }

    @Test
    void losingTheHostOfSourceAndSinkRecoversBothLocally() {
        RecoveryPrediction local = new LocalRecoveryTime(smallLogs()).ifLost(H1);

        double restore = (0.005 + 1_000 / 1e8) + (0.005 + 1_000_000 / 1e8);    // one after another: 0.02001
        double backlog = 0.5 + 0.2 + (0.05 + 2 * 0.01) + restore;               // T = 0.79001 s
        // source: ρ = 0.2, drain T/4, its live downstream (the counts, busiest ρ = 0.5) drop its 1,000 records;
        // the sink, lost as well, is no live downstream; from the source to the sinks it is the end-to-end delay
        double source = Math.max(backlog * 0.2 / 0.8, 1_000 * 1e-6 / 0.5) + 0.00425;
        double sink = backlog * 0.2 / 0.8 + 0.000125;
        assertThat(local.lostTasks()).containsExactly(task("wc/source#0"), task("wc/sink#0"));
        assertThat(local.catchUpSeconds().getAsDouble()).isCloseTo(Math.max(source, sink), within(CLOSE));
        assertThat(local.reprocessedRecords()).isCloseTo((2000 + 2000) * backlog, within(CLOSE));
    }

    /**
     * The two counts, each with 400 MB of state and only 5 % spare capacity, share h2. LOCAL restores both on one
     * replacement host one after the other; GLOBAL deals them over the two live hosts, which restore in parallel.
     * The longer backlog is then worked off 19 times slower than it came (ρ / (1 − ρ) = 0.95 / 0.05).
     */
    private static RecoveryInputs bigStateWithLittleSpareCapacity(RestoreOrder order) {
        return inputs(Plans.placement("wc/source#0", "h1", "wc/count#0", "h2", "wc/count#1", "h2", "wc/sink#0", "h3"),
                settings(order),
                TaskLoad.of(task("wc/source#0"), 2000, 0.0001).withState(new TaskState(1_000, 0)),
                TaskLoad.of(task("wc/count#0"), 1000, 0.00095).withState(new TaskState(400_000_000, 500)),
                TaskLoad.of(task("wc/count#1"), 1000, 0.00095).withState(new TaskState(400_000_000, 500)),
                TaskLoad.of(task("wc/sink#0"), 2000, 0.0001).withState(new TaskState(1_000_000, 0)));
    }

    @Test
    void choosesGlobalWhenItsParallelRestoreShortensTheBacklogOfTasksWithLittleSpareCapacity() {
        RecoveryInputs inputs = bigStateWithLittleSpareCapacity(RestoreOrder.PER_HOST);

        RecoveryPrediction local = new LocalRecoveryTime(inputs).ifLost(H2);
        RecoveryPrediction global = new GlobalRecoveryTime(inputs).ifLost(H2);

        double count = 0.00095 / 0.05;                                     // W = 0.019 s at ρ = 0.95
        double toSinks = count + CHANNEL + 0.000125;
        double endToEnd = 0.000125 + CHANNEL + toSinks;
        double localRestore = 2 * (0.005 + 4.0);                           // 8.01 s on the replacement host
        double localBacklog = 0.5 + 0.2 + (0.05 + 2 * 0.01) + localRestore; // 8.78 s
        double localTotal = 0.2 + 0.07 + localRestore + localBacklog * 19 + toSinks;  // ≈ 175.12 s
        // h1: source + count#0 = 0.00501 + 4.005; h3: sink + count#1 = 0.015 + 4.005, the slower
        double globalRestore = (0.005 + 0.01) + (0.005 + 4.0);
        // each live host deploys its two tasks in parallel
        double globalBacklog = 0.5 + 0.2 + (0.05 + 2 * 0.01) + globalRestore;  // 4.79 s
        double globalTotal = 0.2 + 0.07 + globalRestore + globalBacklog * 19 + endToEnd; // ≈ 95.32 s
        assertThat(local.totalSeconds().getAsDouble()).isCloseTo(localTotal, within(1e-6));
        assertThat(global.totalSeconds().getAsDouble()).isCloseTo(globalTotal, within(1e-6));
        ModeChoice choice = ModeChoice.between(local, global);
        assertThat(choice.faster()).contains(RecoveryMode.GLOBAL);
        assertThat(choice.reason()).startsWith("GLOBAL: 95.322 s against LOCAL 175.121 s");
    }

    @Test
    void choosesLocalForTheSameJobWhenRestoresRunOneAtATime() {
        RecoveryInputs inputs = bigStateWithLittleSpareCapacity(RestoreOrder.SERIAL);

        ModeChoice choice = ModeChoice.between(new LocalRecoveryTime(inputs).ifLost(H2),
                new GlobalRecoveryTime(inputs).ifLost(H2));

        // GLOBAL now fetches all four states in a row (8.03001 s), more than LOCAL's two (8.01 s), and restarts more
        assertThat(choice.global().term(Term.RESTORE).seconds().getAsDouble())
                .isCloseTo((0.005 + 0.00001) + 2 * (0.005 + 4.0) + (0.005 + 0.01), within(CLOSE));
        assertThat(choice.faster()).contains(RecoveryMode.LOCAL);
    }

    @Test
    void aLostTaskWithoutSpareCapacityNeverCatchesUpInEitherMode() {
        RecoveryInputs inputs = inputs(
                Plans.placement("wc/source#0", "h1", "wc/count#0", "h2", "wc/count#1", "h3", "wc/sink#0", "h1"),
                settings(RestoreOrder.PER_HOST),
                TaskLoad.of(task("wc/source#0"), 2000, 0.0001),
                TaskLoad.of(task("wc/count#0"), 1000, 0.0012),      // ρ = 1.2
                TaskLoad.of(task("wc/count#1"), 1000, 0.0004),
                TaskLoad.of(task("wc/sink#0"), 2000, 0.0001));

        RecoveryPrediction local = new LocalRecoveryTime(inputs).ifLost(H2);
        RecoveryPrediction global = new GlobalRecoveryTime(inputs).ifLost(H2);

        for (RecoveryPrediction prediction : List.of(local, global)) {
            assertThat(prediction.neverCatchesUp()).isTrue();
            assertThat(prediction.totalSeconds()).isEmpty();
            assertThat(prediction.catchUpSeconds()).isEmpty();
            assertThat(prediction.saturatedTasks()).containsExactly(task("wc/count#0"));
            assertThat(prediction.term(Term.CATCH_UP).explanation())
                    .startsWith("never catches up").contains("wc/count#0 (ρ = 1.20)");
            assertThat(prediction.term(Term.RESTORE).seconds()).isPresent();
        }
        ModeChoice choice = ModeChoice.between(local, global);
        assertThat(choice.faster()).isEmpty();
        assertThat(choice.reason()).startsWith("neither mode catches up").contains("wc/count#0");
    }

    @Test
    void choosesLocalWhenOnlyATaskOutsideTheLostOnesPathsSaturates() {
        ExecutionPlan plan = Plans.fromJson("""
                {'id': 't', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 1},
                  {'id': 'a', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'b', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'sinkA', 'type': 'log-sink', 'parallelism': 1, 'inputs': [{'from': 'a'}]},
                  {'id': 'sinkB', 'type': 'log-sink', 'parallelism': 1, 'inputs': [{'from': 'b'}]}]}
                """);
        TaskLoads loads = TaskLoads.of(plan, List.of(TaskLoad.of(task("t/source#0"), 1000, 0.0001),
                TaskLoad.of(task("t/a#0"), 1000, 0.0005), TaskLoad.of(task("t/b#0"), 1000, 0.0011), // b: ρ = 1.1
                TaskLoad.of(task("t/sinkA#0"), 1000, 0.0001), TaskLoad.of(task("t/sinkB#0"), 1000, 0.0001)));
        TopologyDelay delay = LongestPath.of(plan, loads, ChannelCosts.uniform(ChannelCost.NONE), new MM1());
        RecoveryInputs inputs = new RecoveryInputs(plan, loads, Placement.of(plan, Plans.placement("t/source#0",
                "h1", "t/a#0", "h2", "t/b#0", "h1", "t/sinkA#0", "h1", "t/sinkB#0", "h1")),
                settings(RestoreOrder.PER_HOST), delay);

        ModeChoice choice = ModeChoice.between(new LocalRecoveryTime(inputs).ifLost(H2),
                new GlobalRecoveryTime(inputs).ifLost(H2));

        assertThat(choice.global().neverCatchesUp()).isTrue();
        assertThat(choice.global().saturatedTasks()).containsExactly(task("t/b#0"));
        assertThat(choice.local().neverCatchesUp()).isFalse();
        assertThat(choice.faster()).contains(RecoveryMode.LOCAL);
        assertThat(choice.reason()).contains("GLOBAL never catches up");
    }

    @Test
    void expectsHalfAnIntervalPlusTheCheckpointDurationWhenPredictingAhead() {
        // a failure at a random moment: on average 1.0 / 2 + 0.05 after the restored checkpoint's cut
        assertThat(CheckpointTiming.expected(1.0, 0.05).ageAtFailureSeconds()).isCloseTo(0.55, within(CLOSE));
        assertThat(CheckpointTiming.measured(1.0, 0.05, 0.9).ageAtFailureSeconds()).isEqualTo(0.9);
    }
}
