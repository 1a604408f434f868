package io.steadfast.benchmarks;

import io.steadfast.runtime.plan.ExecutionPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * generator → key-partitioned keyed-count → sink across two host processes on loopback: the generator in this
 * JVM, keyed-count and sink in a child JVM. After a warm-up run, measures the maximum throughput, then the
 * end-to-end latency (p50/p99) at half of it, and prints a table.
 */
public final class ThroughputBenchmark {

    private final TwoHostPipeline pipeline;

    private ThroughputBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        long fixedLatencyRate = args.length > 2 ? Long.parseLong(args[2]) : 0;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("Throughput benchmark: %,d events over %,d keys per run; child host log: %s%n",
                events, keys, log);
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            new ThroughputBenchmark(pipeline).run(events, keys, fixedLatencyRate);
        }
    }

    private void run(long events, int keys, long fixedLatencyRate) throws Exception {
        System.out.println("warm-up ...");
        pipeline.measureThroughput(Math.max(1, events / 4), keys);
        pipeline.measureLatency(Math.max(1, events / 4), keys, 0, TwoHostPipeline.COUNT);
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= (fixedLatencyRate > 0 ? 0 : 3); i++) {
            double rate = pipeline.measureThroughput(events, keys);
            System.out.printf("run %d: %,.0f events/s%n", i, rate);
            rates.add(rate);
        }
        if (fixedLatencyRate > 0) {
            rates.addAll(List.of(fixedLatencyRate * 2.0, fixedLatencyRate * 2.0, fixedLatencyRate * 2.0));
            System.out.println("(throughput runs skipped: a latency rate was given)");
        }
        rates.sort(Double::compare);
        double median = rates.get(1);
        long halfRate = (long) (median / 2);
        long latencyEvents = halfRate * 15;
        System.out.printf("latency run at %,d events/s for 15 s ...%n", halfRate);
        Map<String, Object> latency = pipeline.measureLatency(latencyEvents, keys, halfRate, TwoHostPipeline.COUNT);

        System.out.println();
        System.out.println("| figure | value |");
        System.out.println("| --- | --- |");
        System.out.printf("| throughput, median of 3 runs of %,d events | %,.0f events/s |%n", events, median);
        System.out.printf("| throughput, best run | %,.0f events/s |%n", rates.get(2));
        System.out.printf("| latency run rate (half of the median) | %,d events/s |%n", halfRate);
        System.out.printf("| end-to-end latency p50 | %.2f ms |%n", micros(latency.get("p50Micros")) / 1000.0);
        System.out.printf("| end-to-end latency p90 | %.2f ms |%n", micros(latency.get("p90Micros")) / 1000.0);
        System.out.printf("| end-to-end latency p99 | %.2f ms |%n", micros(latency.get("p99Micros")) / 1000.0);
        System.out.printf("| end-to-end latency p99.9 | %.2f ms |%n", micros(latency.get("p999Micros")) / 1000.0);
        System.out.printf("| end-to-end latency max | %.2f ms |%n", micros(latency.get("maxMicros")) / 1000.0);
        System.out.printf("| 100 ms windows whose worst latency exceeded 20 ms | %s |%n", latency.get("windowsOver20ms"));
        System.out.printf("| latency samples (1 in 16 events) | %,d |%n", micros(latency.get("count")));
        System.out.println();
        System.out.println("stalls (offset into the measured part: worst latency in that 100 ms, ms): " + latency.get("stalls"));
        System.out.println("data plane, generator host: "
                + DataPlaneCounters.of(pipeline.local().dataPlane().metrics()));
        System.out.println("data plane, counting host:  " + pipeline.child().request("DATAPLANE", "DATAPLANE "));
    }

    private static long micros(Object value) {
        return ((Number) value).longValue();
    }
}
