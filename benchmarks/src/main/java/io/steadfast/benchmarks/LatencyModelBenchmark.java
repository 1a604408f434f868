package io.steadfast.benchmarks;

import io.steadfast.model.FrameBatching;
import io.steadfast.model.KingmanGG1;
import io.steadfast.model.LongestPath;
import io.steadfast.model.PathStep;
import io.steadfast.model.TaskDelay;
import io.steadfast.model.TaskLoad;
import io.steadfast.model.TaskLoads;
import io.steadfast.model.TopologyDelay;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The delay model's predicted mean end-to-end latency against the measured one, on the throughput benchmark's job
 * (generator → keyed-count → sink across two host processes): the maximum rate is measured first (median of 3
 * runs), then the job runs 15 s at 25, 50 and 75 % of it with a generator that stamps wall-clock time and a sink
 * that records arrival minus that time. In each run, 8 s in, the tasks' reports give each task's rate and busy share
 * over one second; from them, the hosts' batching settings and a network delay per channel, the model predicts the
 * mean end-to-end latency (the sinks' delays weighted by their rates), held against the mean the sink measured from
 * 3 s in to the end.
 *
 * <pre>{@code java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*" \
 *   io.steadfast.benchmarks.LatencyModelBenchmark 10000000 10000    # events per throughput run, keys}</pre>
 */
public final class LatencyModelBenchmark {

    private static final double[] SHARES = {0.25, 0.5, 0.75};
    private static final int SECONDS = 15;
    /** The data plane's hop on loopback, besides batching; the same default as the router's model. */
    private static final double NETWORK_SECONDS = 0.0002;

    private final TwoHostPipeline pipeline;

    private LatencyModelBenchmark(TwoHostPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("Latency model benchmark: %,d events per throughput run over %,d keys; child host log: %s%n",
                events, keys, log);
        try (TwoHostPipeline pipeline = new TwoHostPipeline(log)) {
            new LatencyModelBenchmark(pipeline).run(events, keys);
        }
    }

    /**
     * @param predictedMeanMillis with each edge's batching as its senders measured it
     * @param modelledBatchingMeanMillis with each edge's batching from the batching settings and the channel rates
     */
    /**
     * @param measuredPartsMillis what the tasks on the critical path measured themselves: their mean residence (queue
     *                            and processing) and the mean wait of their records in output frames, summed
     * @param hops the channels on that path
     */
    private record Row(double share, long rate, double measuredMeanMillis, double predictedMeanMillis,
                       double modelledBatchingMeanMillis, double p50Millis, double countUtilisation,
                       double measuredPartsMillis, int hops) {

        long errorPercent() {
            return errorPercent(predictedMeanMillis);
        }

        long errorPercent(double predicted) {
            return Math.round(100 * Math.abs(predicted - measuredMeanMillis) / measuredMeanMillis);
        }
    }

    private void run(long events, int keys) throws Exception {
        System.out.println("warm-up ...");
        pipeline.measureThroughput(Math.max(1, events / 4), keys);
        pipeline.measureLatency(Math.max(1, events / 4), keys, 0, TwoHostPipeline.COUNT);
        double[] rates = new double[3];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = pipeline.measureThroughput(events, keys);
            System.out.printf("throughput run %d: %,.0f events/s%n", i + 1, rates[i]);
        }
        Arrays.sort(rates);
        double max = rates[1];
        List<Row> rows = new ArrayList<>();
        for (double share : SHARES) {
            long rate = Math.round(max * share);
            System.out.printf("latency run at %.0f %% of %,.0f events/s: %,d events/s for %d s ...%n", share * 100,
                    max, rate, SECONDS);
            rows.add(measure(share, rate, keys));
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Maximum rate (median of 3 runs): %,.0f events/s%n%n", max);
        System.out.println("| share of the maximum | rate | measured mean | predicted mean | abs. error"
                + " | predicted, batching modelled | abs. error | measured p50 | count's utilisation |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Row row : rows) {
            System.out.printf(Locale.ROOT, "| %.0f %% | %,d events/s | %.2f ms | %.2f ms | %d %% | %.2f ms | %d %%"
                            + " | %.2f ms | %.2f |%n",
                    row.share() * 100, row.rate(), row.measuredMeanMillis(), row.predictedMeanMillis(),
                    row.errorPercent(), row.modelledBatchingMeanMillis(),
                    row.errorPercent(row.modelledBatchingMeanMillis()), row.p50Millis(), row.countUtilisation());
        }
        System.out.println();
        System.out.println("Where the measured mean goes: what the tasks on the path measured themselves (residence and"
                + " output wait), and what is left for the hops between them (sending, the network, receiving and"
                + " waking the next task's thread):");
        System.out.println();
        System.out.println("| share of the maximum | measured mean | tasks' own measurements | left for the hops |"
                + " per hop | the model's per hop |");
        System.out.println("| --- | --- | --- | --- | --- | --- |");
        for (Row row : rows) {
            double left = row.measuredMeanMillis() - row.measuredPartsMillis();
            System.out.printf(Locale.ROOT, "| %.0f %% | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms |%n",
                    row.share() * 100, row.measuredMeanMillis(), row.measuredPartsMillis(), left,
                    left / Math.max(1, row.hops()), NETWORK_SECONDS * 1000);
        }
    }

    private Row measure(double share, long rate, int keys) throws Exception {
        ExecutionPlan plan = pipeline.plan("wallclock-generator", rate * SECONDS, keys, rate, "latency-sink",
                RecoveryMode.GLOBAL, TwoHostPipeline.COUNT);
        pipeline.deploy(plan);
        Thread.sleep(3_000);
        pipeline.child().request("LATENCY", "LATENCY "); // the first 3 s are not measured
        Thread.sleep(4_000);
        reports(plan); // starts a window of the hosts' rates
        Thread.sleep(1_000);
        Map<TaskId, TaskReport> reports = reports(plan);
        TopologyDelay predicted = predict(plan, reports, true);
        TopologyDelay batchingModel = predict(plan, reports, false);
        printTerms(plan, reports, predicted);
        pipeline.awaitFinished(plan);
        @SuppressWarnings("unchecked")
        Map<String, Object> latency = TwoHostPipeline.JSON.readValue(pipeline.child().request("LATENCY",
                "LATENCY "), Map.class);
        pipeline.cancel(plan);
        double countUtilisation = plan.tasks().stream().map(TaskSpec::id)
                .filter(task -> task.operator().value().equals("count"))
                .mapToDouble(task -> reports.get(task).busyFraction()).max().orElse(0);
        return new Row(share, rate, ((Number) latency.get("meanMicros")).doubleValue() / 1000,
                predicted.meanEndToEndSeconds().orElse(Double.NaN) * 1000,
                batchingModel.meanEndToEndSeconds().orElse(Double.NaN) * 1000,
                ((Number) latency.get("p50Micros")).doubleValue() / 1000, countUtilisation,
                measuredParts(predicted, reports), predicted.criticalPath().size() - 1);
    }

    /** The residence and output wait the critical path's tasks measured, summed, in milliseconds. */
    private static double measuredParts(TopologyDelay predicted, Map<TaskId, TaskReport> reports) {
        double millis = 0;
        for (PathStep step : predicted.criticalPath()) {
            TaskReport report = reports.get(step.task());
            millis += (report.latencyMillis() == null ? 0 : report.latencyMillis())
                    + (report.outputWaitMillis() == null ? 0 : report.outputWaitMillis());
        }
        return millis;
    }

    /** Every task's latest report, from both hosts. */
    private Map<TaskId, TaskReport> reports(ExecutionPlan plan) throws Exception {
        List<TaskReport> all = new ArrayList<>(pipeline.local().taskReports());
        all.addAll(List.of(TwoHostPipeline.JSON.readValue(pipeline.child().request("REPORT", "REPORT "),
                TaskReport[].class)));
        Map<TaskId, TaskReport> byTask = new HashMap<>();
        for (TaskReport report : all) {
            TaskId task = TaskId.parse(report.task());
            if (task.topology().equals(plan.topology())) {
                byTask.put(task, report);
            }
        }
        return byTask;
    }

    /**
     * The model's delays from the tasks' reports: rates, busy shares and records per input frame, with c_a² = c_s² =
     * 1 as the router assumes; each edge's batching is what its senders measured ({@code measuredBatching}) or what
     * the batching settings give at the channel's rate.
     */
    private static TopologyDelay predict(ExecutionPlan plan, Map<TaskId, TaskReport> reports,
                                         boolean measuredBatching) {
        List<TaskLoad> loads = new ArrayList<>();
        for (TaskSpec task : plan.tasks()) {
            TaskReport report = reports.get(task.id());
            double rate = report.recordsInPerSecond();
            double frames = report.framesInPerSecond() == null ? 0 : report.framesInPerSecond();
            loads.add(TaskLoad.of(task.id(), rate, rate > 0 ? report.busyFraction() / rate : 0)
                    .withRecordsPerFrame(TaskLoad.recordsPerFrame(rate, frames)));
        }
        TaskSettings batching = TaskSettings.defaults();
        return LongestPath.of(plan, TaskLoads.of(plan, loads), new FrameBatching(batching.linger(),
                        batching.shortLinger(), batching.shortLingerRecords())
                .channelCosts(plan, task -> reports.get(task).recordsOutPerSecond(),
                        task -> measuredBatching && reports.get(task).outputWaitMillis() != null
                                ? OptionalDouble.of(reports.get(task).outputWaitMillis() / 1000)
                                : OptionalDouble.empty(), NETWORK_SECONDS),
                new KingmanGG1());
    }

    /** Per task, the inputs and terms of the prediction, for seeing which term is off. */
    private static void printTerms(ExecutionPlan plan, Map<TaskId, TaskReport> reports, TopologyDelay predicted) {
        for (TaskSpec task : plan.tasks()) {
            TaskReport report = reports.get(task.id());
            TaskDelay delay = predicted.delay(task.id());
            double frames = report.framesInPerSecond() == null ? 0 : report.framesInPerSecond();
            System.out.printf(Locale.ROOT, "  %-22s in %,10.0f/s  frames %,7.0f/s (b = %,6.0f)  busy %.2f  wait %.3f ms"
                            + "  service %.4f ms  measured in task %s ms  output wait %s ms%n", task.id(),
                    report.recordsInPerSecond(), frames, TaskLoad.recordsPerFrame(report.recordsInPerSecond(), frames),
                    report.busyFraction(), delay.waitSeconds().orElse(Double.NaN) * 1000,
                    delay.serviceSeconds() * 1000, format(report.latencyMillis()), format(report.outputWaitMillis()));
        }
    }

    private static String format(Double millis) {
        return millis == null ? "-" : String.format(Locale.ROOT, "%.3f", millis);
    }
}
