package io.steadfast.benchmarks;

import io.steadfast.runtime.plan.ExecutionPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.type.TypeReference;

/**
 * Throughput of the two-host job with aligned checkpoints every second against without, in the same run
 * (alternating, so machine noise hits both), and the duration (trigger until the last task's snapshot is
 * encoded) and size of the checkpoints. Snapshots are encoded but kept nowhere: this measures what
 * checkpointing costs the pipeline, not the store.
 */
public final class CheckpointOverheadBenchmark {

    private final TwoHostPipeline pipeline;
    private final List<Double> durationsMillis = new ArrayList<>();
    private final List<Long> sizes = new ArrayList<>();
    private long longestPauseNanos;

    private CheckpointOverheadBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        long intervalMillis = args.length > 2 ? Long.parseLong(args[2]) : 1_000;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("Checkpoint overhead: %,d events over %,d keys per run, checkpoint every %d ms; child log %s%n",
                events, keys, intervalMillis, log);
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            new CheckpointOverheadBenchmark(pipeline).run(events, keys, intervalMillis);
        }
    }

    private void run(long events, int keys, long intervalMillis) throws Exception {
        System.out.println("warm-up ...");
        pipeline.measureThroughput(events / 4, keys);
        measureWithCheckpoints(events / 4, keys, intervalMillis);
        durationsMillis.clear();
        sizes.clear();
        longestPauseNanos = 0;
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            without.add(pipeline.measureThroughput(events, keys));
            with.add(measureWithCheckpoints(events, keys, intervalMillis));
            System.out.printf("round %d: without %,.0f events/s, with %,.0f events/s%n", round,
                    without.get(round - 1), with.get(round - 1));
        }
        without.sort(Double::compare);
        with.sort(Double::compare);
        durationsMillis.sort(Double::compare);
        sizes.sort(Long::compare);
        System.out.printf("%n| figure | value |%n| --- | --- |%n");
        System.out.printf("| throughput without checkpoints, median of 3 | %,.0f events/s |%n", without.get(1));
        System.out.printf("| throughput with a checkpoint every %d ms, median of 3 | %,.0f events/s |%n",
                intervalMillis, with.get(1));
        System.out.printf("| ratio with / without | %.3f |%n", with.get(1) / without.get(1));
        System.out.printf("| checkpoints completed | %d |%n", durationsMillis.size());
        if (!durationsMillis.isEmpty()) {
            System.out.printf("| checkpoint duration p50 | %.1f ms |%n", percentile(durationsMillis, 50));
            System.out.printf("| checkpoint duration p99 | %.1f ms |%n", percentile(durationsMillis, 99));
            System.out.printf("| checkpoint size (3 tasks), median | %,d bytes |%n", sizes.get(sizes.size() / 2));
            System.out.printf("| longest task-thread pause for a checkpoint | %.2f ms |%n", longestPauseNanos / 1e6);
        }
    }

    private static double percentile(List<Double> sorted, int percent) {
        int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private double measureWithCheckpoints(long events, int keys, long intervalMillis) throws Exception {
        ExecutionPlan plan = pipeline.plan("generator", events, keys, 0, "log-sink");
        Map<Long, Long> triggeredAt = new ConcurrentHashMap<>();
        ScheduledExecutorService trigger = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "bench-checkpoint-trigger");
            thread.setDaemon(true);
            return thread;
        });
        long start = System.nanoTime();
        pipeline.deploy(plan);
        long[] next = {0};
        trigger.scheduleAtFixedRate(() -> {
            long id = ++next[0];
            triggeredAt.put(id, System.nanoTime());
            pipeline.local().triggerCheckpoint(plan.topology(), id);
        }, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        pipeline.awaitFinished(plan);
        double seconds = (System.nanoTime() - start) / 1e9;
        trigger.shutdownNow();
        trigger.awaitTermination(5, TimeUnit.SECONDS);
        Thread.sleep(300);
        collect(triggeredAt);
        pipeline.cancel(plan);
        return events / seconds;
    }

    private void collect(Map<Long, Long> triggeredAt) throws Exception {
        Map<Long, CheckpointTally.Seen> remote = TwoHostPipeline.JSON.readValue(
                pipeline.child().request("CHECKPOINTS", "CHECKPOINTS "),
                new TypeReference<Map<Long, CheckpointTally.Seen>>() { });
        Map<Long, CheckpointTally.Seen> local = new HashMap<>(pipeline.localCheckpoints().seen());
        pipeline.localCheckpoints().clear();
        for (Map.Entry<Long, Long> trigger : triggeredAt.entrySet()) {
            CheckpointTally.Seen here = local.get(trigger.getKey());
            CheckpointTally.Seen there = remote.get(trigger.getKey());
            if (here == null || there == null || here.tasks() + there.tasks() < 3) {
                continue;
            }
            long last = Math.max(here.lastNanos(), there.lastNanos());
            durationsMillis.add((last - trigger.getValue()) / 1e6);
            sizes.add(here.bytes() + there.bytes());
            longestPauseNanos = Math.max(longestPauseNanos, Math.max(here.longestSyncNanos(), there.longestSyncNanos()));
        }
    }
}
