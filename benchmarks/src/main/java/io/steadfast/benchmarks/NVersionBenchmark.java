package io.steadfast.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cost of N-version voting, measured in one run: the throughput benchmark's job (generator → middle operator →
 * sink across two host processes) with its middle operator as one operator (N = 1, no vote) and as three versions
 * under a majority vote (N = 3: three version operators and a vote operator, all on the child host). Two middle
 * operators: the keyed-count, the cheapest keyed PE there is, where the vote's own cost per input dominates; and a
 * {@link BusyCount} computing for a few microseconds per event at parallelism 2, where the versions' work does, as for
 * a scoring model. Throughput runs alternate N = 1 and N = 3 so that noise hits both; then 15 s of latency for each at
 * half its own median rate, three times each, alternating. Prints a table per job with the ratios.
 */
public final class NVersionBenchmark {

    private static final String MAJORITY = "\"voting\": {\"strategy\": \"majority\"}";
    private static final int RUNS = 3;
    private static final int BUSY_WORK = 2_000;

    /** A job's middle operator with N = 1 and N = 3, and the events of its throughput runs. */
    private record Job(String name, String one, String three, long events) {

        /**
         * @param operator the middle operator's type and config as JSON members, which each version repeats
         * @param layout   further JSON members of the middle operator (its parallelism), or nothing
         */
        static Job of(String name, String operator, String layout, long events) {
            String version = "{" + operator + "}";
            return new Job(name, operator + layout, "\"versions\": [%s, %s, %s], %s%s".formatted(version, version,
                    version, MAJORITY, layout), events);
        }
    }

    private final TwoHostPipeline pipeline;

    private NVersionBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("N-version benchmark: %,d events over %,d keys per run (a quarter for the busy count);"
                + " child host log: %s%n", events, keys, log);
        List<Job> jobs = List.of(
                Job.of("keyed-count", "\"type\": \"keyed-count\"", "", events),
                Job.of("busy-count (" + BUSY_WORK + " rounds of work per event), parallelism 2",
                        "\"type\": \"busy-count\", \"config\": {\"work\": " + BUSY_WORK + "}",
                        ", \"parallelism\": 2", events / 4));
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            NVersionBenchmark benchmark = new NVersionBenchmark(pipeline);
            List<String> tables = new ArrayList<>();
            for (Job job : jobs) {
                tables.add(benchmark.run(job, keys));
            }
            tables.forEach(System.out::println);
        }
    }

    private String run(Job job, int keys) throws Exception {
        System.out.println("job " + job.name() + ": warm-up ...");
        for (String middle : List.of(job.one(), job.three())) {
            pipeline.measureThroughput(Math.max(1, job.events() / 4), keys, middle);
            pipeline.measureLatency(Math.max(1, job.events() / 4), keys, 0, middle);
        }
        List<Double> one = new ArrayList<>();
        List<Double> three = new ArrayList<>();
        for (int i = 1; i <= RUNS; i++) {
            one.add(pipeline.measureThroughput(job.events(), keys, job.one()));
            three.add(pipeline.measureThroughput(job.events(), keys, job.three()));
            System.out.printf("run %d: N = 1 %,.0f events/s, N = 3 %,.0f events/s (%.2f)%n", i, one.get(i - 1),
                    three.get(i - 1), three.get(i - 1) / one.get(i - 1));
        }
        double medianOne = median(one);
        double medianThree = median(three);
        // a latency run's p99 moves with the stalls of a busy machine (a young collection, the kernel's memory
        // monitor): runs alternate too, and the table gives the median of each percentile
        List<Map<String, Object>> latenciesOne = new ArrayList<>();
        List<Map<String, Object>> latenciesThree = new ArrayList<>();
        for (int i = 1; i <= RUNS; i++) {
            latenciesOne.add(latencyAtHalf(medianOne, keys, job.one(), "N = 1"));
            latenciesThree.add(latencyAtHalf(medianThree, keys, job.three(), "N = 3"));
            System.out.printf("latency run %d: p99 N = 1 %.2f ms, N = 3 %.2f ms%n", i,
                    millis(latenciesOne.get(i - 1), "p99"), millis(latenciesThree.get(i - 1), "p99"));
        }

        StringBuilder table = new StringBuilder("\n" + job.name() + ":\n\n");
        table.append("| figure | N = 1 | N = 3 (majority) | N = 3 vs N = 1 |\n");
        table.append("| --- | --- | --- | --- |\n");
        table.append("| throughput, median of %d runs of %,d events | %,.0f events/s | %,.0f events/s | %.2f× |%n"
                .formatted(RUNS, job.events(), medianOne, medianThree, medianThree / medianOne));
        table.append("| latency run rate (half of its median) | %,d events/s | %,d events/s | |%n"
                .formatted((long) (medianOne / 2), (long) (medianThree / 2)));
        for (String percentile : List.of("p50", "p99", "p999")) {
            double a = median(latenciesOne.stream().map(latency -> millis(latency, percentile)).toList());
            double b = median(latenciesThree.stream().map(latency -> millis(latency, percentile)).toList());
            table.append("| end-to-end latency %s, median of %d runs | %.2f ms | %.2f ms | %+.2f ms |%n"
                    .formatted(percentile.equals("p999") ? "p99.9" : percentile, RUNS, a, b, b - a));
        }
        table.append("| 100 ms windows whose worst latency exceeded 20 ms, per run | %s | %s | |%n"
                .formatted(windowsOver20ms(latenciesOne), windowsOver20ms(latenciesThree)));
        return table.toString();
    }

    private Map<String, Object> latencyAtHalf(double median, int keys, String job, String name) throws Exception {
        long halfRate = (long) (median / 2);
        System.out.printf("latency run of %s at %,d events/s for 15 s ...%n", name, halfRate);
        return pipeline.measureLatency(halfRate * 15, keys, halfRate, job);
    }

    private static String windowsOver20ms(List<Map<String, Object>> latencies) {
        return latencies.stream().map(latency -> String.valueOf(latency.get("windowsOver20ms")))
                .collect(Collectors.joining(", "));
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
