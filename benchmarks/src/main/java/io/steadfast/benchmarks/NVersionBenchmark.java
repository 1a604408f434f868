package io.steadfast.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cost of N-version voting, measured in one run: the throughput benchmark's job (generator → keyed-count → sink
 * across two host processes) with the keyed-count as one operator (N = 1, no vote) and as three versions under a
 * majority vote (N = 3: three keyed-count version tasks and a vote task, all on the child host). Throughput runs
 * alternate N = 1 and N = 3 so that noise hits both; then 15 s of latency for each at half its own median rate. Prints
 * a table with the ratios.
 */
public final class NVersionBenchmark {

    private static final String N1 = TwoHostPipeline.COUNT;
    private static final String N3 = """
            "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}, {"type": "keyed-count"}],
             "voting": {"strategy": "majority"}""";
    private static final int RUNS = 3;

    private final TwoHostPipeline pipeline;

    private NVersionBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("N-version benchmark: %,d events over %,d keys per run; child host log: %s%n", events, keys,
                log);
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            new NVersionBenchmark(pipeline).run(events, keys);
        }
    }

    private void run(long events, int keys) throws Exception {
        System.out.println("warm-up ...");
        for (String job : List.of(N1, N3)) {
            pipeline.measureThroughput(Math.max(1, events / 4), keys, job);
            pipeline.measureLatency(Math.max(1, events / 4), keys, 0, job);
        }
        List<Double> one = new ArrayList<>();
        List<Double> three = new ArrayList<>();
        for (int i = 1; i <= RUNS; i++) {
            one.add(pipeline.measureThroughput(events, keys, N1));
            three.add(pipeline.measureThroughput(events, keys, N3));
            System.out.printf("run %d: N = 1 %,.0f events/s, N = 3 %,.0f events/s (%.2f)%n", i, one.get(i - 1),
                    three.get(i - 1), three.get(i - 1) / one.get(i - 1));
        }
        double medianOne = median(one);
        double medianThree = median(three);
        Map<String, Object> latencyOne = latencyAtHalf(medianOne, keys, N1, "N = 1");
        Map<String, Object> latencyThree = latencyAtHalf(medianThree, keys, N3, "N = 3");

        System.out.println();
        System.out.println("| figure | N = 1 | N = 3 (majority) | N = 3 vs N = 1 |");
        System.out.println("| --- | --- | --- | --- |");
        System.out.printf("| throughput, median of %d runs of %,d events | %,.0f events/s | %,.0f events/s | %.2f× |%n",
                RUNS, events, medianOne, medianThree, medianThree / medianOne);
        System.out.printf("| latency run rate (half of its median) | %,d events/s | %,d events/s | |%n",
                (long) (medianOne / 2), (long) (medianThree / 2));
        for (String percentile : List.of("p50", "p99", "p999")) {
            double a = millis(latencyOne, percentile);
            double b = millis(latencyThree, percentile);
            System.out.printf("| end-to-end latency %s | %.2f ms | %.2f ms | %+.2f ms |%n",
                    percentile.equals("p999") ? "p99.9" : percentile, a, b, b - a);
        }
        System.out.printf("| 100 ms windows whose worst latency exceeded 20 ms | %s | %s | |%n",
                latencyOne.get("windowsOver20ms"), latencyThree.get("windowsOver20ms"));
    }

    private Map<String, Object> latencyAtHalf(double median, int keys, String job, String name) throws Exception {
        long halfRate = (long) (median / 2);
        System.out.printf("latency run of %s at %,d events/s for 15 s ...%n", name, halfRate);
        return pipeline.measureLatency(halfRate * 15, keys, halfRate, job);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    private static double millis(Map<String, Object> latency, String percentile) {
        return ((Number) latency.get(percentile + "Micros")).longValue() / 1000.0;
    }
}
