package io.steadfast.model;

import static io.steadfast.model.Plans.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked example of docs/model.md: examples/word-count.json (source ×2 → count ×2 → sink) on three hosts,
 * with made-up but plausible loads, under Kingman's G/G/1.
 */
class DelayModelTest {

    private static final double CLOSE = 1e-9;
    private static final ExecutionPlan PLAN = Plans.example("word-count.json");

    /** Detection 0.2 s; restart 20 ms + 5 ms a task; 50 MB/s + 10 ms a fetch per host; checkpoints every second. */
    static RecoverySettings settings() {
        return new RecoverySettings(0.2, new RestartCost(0.02, 0.005),
                new RestoreCost(5e7, 0.01, RestoreOrder.PER_HOST), CheckpointTiming.expected(1.0, 0.05), 1e-6);
    }

    /** 20,000 records/s per source, paced (c_a² = 0); bursty arrivals at the counts and sink (c_a² = 3). */
    private static List<TaskLoad> loads() {
        return List.of(
                new TaskLoad(task("word-count/source#0"), 20_000, 5e-6, 0, 1, 0, new TaskState(100, 11_000)),
                new TaskLoad(task("word-count/source#1"), 20_000, 5e-6, 0, 1, 0, new TaskState(100, 11_000)),
                new TaskLoad(task("word-count/count#0"), 20_000, 20e-6, 3, 0.5, 0, new TaskState(1_000_000, 11_000)),
                new TaskLoad(task("word-count/count#1"), 20_000, 20e-6, 3, 0.5, 0, new TaskState(1_000_000, 11_000)),
                new TaskLoad(task("word-count/sink#0"), 40_000, 10e-6, 3, 1, 0, new TaskState(2_000_000, 0)));
    }

    private static ModelReport report() {
        return DelayModel.forPlan(PLAN).loads(loads())
                .channelCosts(ChannelCosts.uniform(new ChannelCost(0.0005, 0.0002)))
                .placement(Plans.placement("word-count/source#0", "h1", "word-count/count#0", "h1",
                        "word-count/source#1", "h2", "word-count/count#1", "h2", "word-count/sink#0", "h3"))
                .recovery(settings())
                .report();
    }

    @Test
    void predictsTheEndToEndDelayOfTheWorkedExample() {
        ModelReport report = report();

        double source = (0.1 / 0.9) * ((0 + 1) / 2.0) * 5e-6 + 5e-6;       // ρ = 0.1
        double count = (0.4 / 0.6) * ((3 + 0.5) / 2) * 20e-6 + 20e-6;      // ρ = 0.4: 23.3 µs wait
        double sink = (0.4 / 0.6) * ((3 + 1) / 2.0) * 10e-6 + 10e-6;       // ρ = 0.4: 13.3 µs wait
        double channel = 0.0005 + 0.0002;
        assertThat(report.queueingModel()).isEqualTo("G/G/1 (Kingman)");
        assertThat(report.delay().endToEndSeconds().getAsDouble())
                .isCloseTo(source + channel + count + channel + sink, within(CLOSE));   // 1.472 ms
        assertThat(report.delay().delay(task("word-count/count#1")).stability()).isEqualTo(Stability.STABLE);
    }

    @Test
    void predictsBothRecoveriesForLosingEachHostAndPicksTheFaster() {
        ModelReport report = report();

        assertThat(report.hostLosses()).extracting(ModeChoice::lostHost)
                .containsExactly(new HostId("h1"), new HostId("h2"), new HostId("h3"));
        ModeChoice h1 = report.ifLost(new HostId("h1"));
        // LOCAL: restart 0.02 + 2 × 0.005; restore (0.01 + 100 / 5e7) + (0.01 + 1e6 / 5e7) on the replacement host
        double localRestore = (0.01 + 100 / 5e7) + (0.01 + 1e6 / 5e7);
        double localBacklog = (1.0 / 2 + 0.05) + 0.2 + 0.03 + localRestore;      // T = 0.820002 s
        double countToSink = (0.4 / 0.6) * 1.75 * 20e-6 + 20e-6 + 0.0007 + (0.4 / 0.6) * 2 * 10e-6 + 10e-6;
        double localCatchUp = localBacklog * 0.4 / 0.6 + countToSink;              // count#0 is the slower
        assertThat(h1.local().totalSeconds().getAsDouble())
                .isCloseTo(0.2 + 0.03 + localRestore + localCatchUp, within(CLOSE));      // 0.817 s
        // GLOBAL: h2 takes source#0, h3 count#0; restart 0.02 + 3 × 0.005, h2 deploying three tasks, the most;
        // restore h3 = (0.01 + 2e6/5e7) + (0.01 + 1e6/5e7), the slowest
        double globalRestore = (0.01 + 2e6 / 5e7) + (0.01 + 1e6 / 5e7);             // 0.08
        double globalBacklog = 0.55 + 0.2 + 0.035 + globalRestore;                  // T = 0.865 s
        double globalCatchUp = globalBacklog * 0.4 / 0.6 + report.delay().endToEndSeconds().getAsDouble();
        assertThat(h1.global().totalSeconds().getAsDouble())
                .isCloseTo(0.2 + 0.035 + globalRestore + globalCatchUp, within(CLOSE));   // 0.893 s
        assertThat(h1.local().reprocessedRecords()).isCloseTo((20_000 + 20_000) * localBacklog, within(CLOSE));
        assertThat(h1.global().reprocessedRecords())
                .isCloseTo((2 * 20_000 + 2 * 20_000 + 40_000) * globalBacklog, within(CLOSE)); // 103,800
        assertThat(h1.faster()).contains(RecoveryMode.LOCAL);
        assertThat(h1.reason()).isEqualTo("LOCAL: 0.817 s against GLOBAL 0.893 s; LOCAL replays 32,800 records to"
                + " 2 tasks from the upstream logs, GLOBAL processes 103,800 again in all tasks");
    }

    @Test
    void carriesItsInputsAndGivesAnEqualReportForEqualInputs() {
        ModelReport report = report();

        assertThat(report.loads()).containsExactlyElementsOf(loads());
        assertThat(report.settings()).isEqualTo(settings());
        assertThat(report.placement().tasksOn(new HostId("h3"))).containsExactly(task("word-count/sink#0"));
        assertThat(report()).isEqualTo(report);
    }
}
