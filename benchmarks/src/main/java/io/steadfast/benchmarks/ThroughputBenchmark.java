package io.steadfast.benchmarks;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * generator → key-partitioned keyed-count → sink across two host processes on loopback: the generator in this
 * JVM, keyed-count and sink in a child JVM. After a warm-up run, measures the maximum throughput, then the
 * end-to-end latency (p50/p99) at half of it, and prints a table.
 */
public final class ThroughputBenchmark {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HostRuntime local;
    private final ChildHost child;
    private final HostId childId = new HostId("bench-host-b");
    private int runs;

    private ThroughputBenchmark(HostRuntime local, ChildHost child) {
        this.local = local;
        this.child = child;
    }

    public static void main(String[] args) throws Exception {
        long events = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        long fixedLatencyRate = args.length > 2 ? Long.parseLong(args[2]) : 0;
        Path log = Files.createTempFile("steadfast-bench-child", ".log");
        System.out.printf("Throughput benchmark: %,d events over %,d keys per run; child host log: %s%n",
                events, keys, log);
        try (HostRuntime local = new HostRuntime(new HostId("bench-host-a"), OperatorRegistry.load(),
                DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), Clock.systemUTC());
             ChildHost child = ChildHost.start("bench-host-b", "2g", log)) {
            new ThroughputBenchmark(local, child).run(events, keys, fixedLatencyRate);
        }
    }

    private void run(long events, int keys, long fixedLatencyRate) throws Exception {
        System.out.println("warm-up ...");
        measureThroughput(Math.max(1, events / 4), keys, "log-sink", 0);
        measureLatency(Math.max(1, events / 4), keys, 0);
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= (fixedLatencyRate > 0 ? 0 : 3); i++) {
            double rate = measureThroughput(events, keys, "log-sink", 0);
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
        Map<String, Object> latency = measureLatency(latencyEvents, keys, halfRate);

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
        System.out.println("data plane, generator host: " + DataPlaneCounters.of(local.dataPlane().metrics()));
        System.out.println("data plane, counting host:  " + child.request("DATAPLANE", "DATAPLANE "));
    }

    private static long micros(Object value) {
        return ((Number) value).longValue();
    }

    private double measureThroughput(long events, int keys, String sink, long rate) throws Exception {
        String id = "bench-" + (++runs);
        ExecutionPlan plan = plan(id, "generator", events, keys, rate, sink);
        long start = System.nanoTime();
        deploy(plan);
        awaitFinished(plan);
        double seconds = (System.nanoTime() - start) / 1e9;
        cancel(plan);
        return events / seconds;
    }

    private Map<String, Object> measureLatency(long events, int keys, long rate) throws Exception {
        String id = "bench-" + (++runs);
        ExecutionPlan plan = plan(id, "wallclock-generator", events, keys, rate, "latency-sink");
        deploy(plan);
        Thread.sleep(rate > 0 ? 3_000 : 0);
        child.request("LATENCY", "LATENCY ");
        awaitFinished(plan);
        @SuppressWarnings("unchecked")
        Map<String, Object> latency = JSON.readValue(child.request("LATENCY", "LATENCY "), Map.class);
        cancel(plan);
        return latency;
    }

    private ExecutionPlan plan(String id, String generator, long events, int keys, long rate, String sink) {
        String sinkConfig = sink.equals("log-sink") ? "{\"every\": 100000000}" : "{}";
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "%s", "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source", "partitioning": "key"}]},
                  {"id": "sink", "type": "%s", "config": %s, "inputs": [{"from": "count", "partitioning": "key"}]}
                ]}""".formatted(id, generator, events, keys, rate, sink, sinkConfig)));
    }

    private TaskPlacement placement(ExecutionPlan plan) {
        Map<TaskId, HostId> hosts = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id(), task.id().operator().value().equals("source") ? local.id() : childId);
        }
        return new TaskPlacement(hosts, Map.of(local.id(), local.dataEndpoint(), childId, child.endpoint()));
    }

    private void deploy(ExecutionPlan plan) throws Exception {
        TaskPlacement placement = placement(plan);
        child.request("DEPLOY " + JSON.writeValueAsString(new DeployCommand(plan, PlacementWire.of(placement))), "OK");
        local.deploy(plan, placement);
    }

    private void awaitFinished(ExecutionPlan plan) throws Exception {
        String sinkTask = plan.topology() + "/sink#0";
        while (true) {
            JsonNode reports = JSON.readTree(child.request("REPORT", "REPORT "));
            for (JsonNode report : reports) {
                if (report.get("task").asString().equals(sinkTask)) {
                    String status = report.get("status").asString();
                    if (status.equals(TaskStatus.FINISHED.name())) {
                        return;
                    }
                    if (status.equals(TaskStatus.FAILED.name())) {
                        throw new IllegalStateException("sink failed: " + report.get("failure"));
                    }
                }
            }
            for (TaskReport report : local.taskReports()) {
                if (report.status() == TaskStatus.FAILED) {
                    throw new IllegalStateException(report.task() + " failed: " + report.failure());
                }
            }
            Thread.sleep(20);
        }
    }

    private void cancel(ExecutionPlan plan) throws Exception {
        local.cancel(plan.topology());
        child.request("CANCEL " + plan.topology(), "OK");
    }
}
