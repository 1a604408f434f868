package io.steadfast.benchmarks;

import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.RecoveryMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of the two-host job with in-flight logging (LOCAL recovery mode: every remote channel keeps an output
 * log until a checkpoint completes, decisions ride in the frames, log segments are batched and encoded for shipping)
 * against without (GLOBAL mode), both with a checkpoint every second, alternating in the same run so machine noise
 * hits both. Each checkpoint's completion is announced to both hosts when the next one is triggered (a checkpoint
 * takes tens of milliseconds, the interval a second), so the logs truncate as they do in a cluster. The shipped
 * segments are counted, not sent: the checkpoint-service's own cost is not in these figures.
 *
 * <p>Each round measures off then on, back to back; the ratio is the median of the rounds' own ratios (a round's two
 * runs see the same machine, while rounds of one mode varied by 20 % on these machines) and, beside it, the ratio of
 * the two modes' medians.
 *
 * <p>Arguments: {@code [events per run, default 20,000,000] [keys, default 10,000] [rounds, default 5]}.
 */
public final class LoggingOverheadBenchmark {

    private static final long CHECKPOINT_INTERVAL_MILLIS = 1_000;

    private final TwoHostPipeline pipeline;

    private LoggingOverheadBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("Logging overhead: %,d events over %,d keys per run, a checkpoint every %d ms; child log %s%n",
                events, keys, CHECKPOINT_INTERVAL_MILLIS, log);
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            new LoggingOverheadBenchmark(pipeline).run(events, keys, rounds);
        }
    }

    private void run(long events, int keys, int rounds) throws Exception {
        System.out.println("warm-up ...");
        measure(events / 4, keys, RecoveryMode.GLOBAL);
        measure(events / 4, keys, RecoveryMode.LOCAL);
        List<Double> off = new ArrayList<>();
        List<Double> on = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        long shippedBefore = shipped();
        for (int round = 1; round <= rounds; round++) {
            off.add(measure(events, keys, RecoveryMode.GLOBAL));
            on.add(measure(events, keys, RecoveryMode.LOCAL));
            ratios.add(on.get(round - 1) / off.get(round - 1));
            System.out.printf(Locale.ROOT, "round %d: logging off %,.0f events/s, on %,.0f events/s, ratio %.3f%n",
                    round, off.get(round - 1), on.get(round - 1), ratios.get(round - 1));
        }
        long shippedBytes = shipped() - shippedBefore;
        double medianOff = median(off);
        double medianOn = median(on);
        System.out.printf(Locale.ROOT, "%n| figure | value |%n| --- | --- |%n");
        System.out.printf(Locale.ROOT, "| throughput, logging off (GLOBAL), median of %d | %,.0f events/s |%n", rounds,
                medianOff);
        System.out.printf(Locale.ROOT, "| throughput, logging on (LOCAL), median of %d | %,.0f events/s |%n", rounds,
                medianOn);
        System.out.printf(Locale.ROOT, "| ratio on / off, median of the %d rounds' own | %.3f |%n", rounds,
                median(ratios));
        System.out.printf(Locale.ROOT, "| ratio of the medians | %.3f |%n", medianOn / medianOff);
        System.out.printf(Locale.ROOT, "| log bytes handed over for shipping, %d LOCAL runs | %,d |%n", rounds,
                shippedBytes);
    }

    /** The median; of an even count, the mean of the middle two. */
    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private long shipped() throws Exception {
        return pipeline.localShipped().bytes()
                + Long.parseLong(pipeline.child().request("SHIPPED", "SHIPPED ").trim());
    }

    private double measure(long events, int keys, RecoveryMode mode) throws Exception {
        ExecutionPlan plan = pipeline.plan("generator", events, keys, 0, "log-sink", mode);
        ScheduledExecutorService trigger = Executors.newSingleThreadScheduledExecutor(
                new DaemonThreads("bench-checkpoint-trigger"));
        long start = System.nanoTime();
        pipeline.deploy(plan);
        long[] next = {0};
        trigger.scheduleAtFixedRate(() -> {
            long id = ++next[0];
            if (id > 1) {
                pipeline.local().checkpointCompleted(plan.topology(), id - 1);
                try {
                    pipeline.child().request("COMPLETED " + plan.topology().value() + " " + (id - 1), "OK");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            pipeline.local().triggerCheckpoint(plan.topology(), id);
        }, CHECKPOINT_INTERVAL_MILLIS, CHECKPOINT_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        pipeline.awaitFinished(plan);
        double seconds = (System.nanoTime() - start) / 1e9;
        trigger.shutdownNow();
        trigger.awaitTermination(5, TimeUnit.SECONDS);
        pipeline.cancel(plan);
        return events / seconds;
    }
}
