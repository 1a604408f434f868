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
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmarks' job, generator → key-partitioned keyed-count → sink, across two host processes: the
 * generator on a host in this JVM, keyed-count and the sink on a host in a child JVM. Deploys, waits for the
 * end of the stream, cancels.
 */
final class TwoHostPipeline implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final HostRuntime local;
    private final ChildHost child;
    private final HostId childId = new HostId("bench-host-b");
    private final CheckpointTally localCheckpoints = new CheckpointTally();
    private final CountingLogSink localShipped = new CountingLogSink();
    private int runs;

    TwoHostPipeline(Path childLog) throws Exception {
        this.local = new HostRuntime(new HostId("bench-host-a"), OperatorRegistry.load(),
                DataPlane.start(DataPlaneConfig.defaults(), localShipped), TaskSettings.defaults(), Clock.systemUTC(),
                localCheckpoints);
        this.child = ChildHost.start(childId.value(), "2g", childLog);
    }

    HostRuntime local() {
        return local;
    }

    ChildHost child() {
        return child;
    }

    CheckpointTally localCheckpoints() {
        return localCheckpoints;
    }

    CountingLogSink localShipped() {
        return localShipped;
    }

    /**
     * A fresh topology of the job, recovered GLOBALly (no output logs: the runtime as the throughput figures were
     * first measured); {@code sink} is log-sink or latest-sink.
     */
    ExecutionPlan plan(String generator, long events, int keys, long rate, String sink) {
        return plan(generator, events, keys, rate, sink, RecoveryMode.GLOBAL);
    }

    /** A fresh topology of the job in the given recovery mode (LOCAL keeps output logs). */
    ExecutionPlan plan(String generator, long events, int keys, long rate, String sink, RecoveryMode mode) {
        return plan(generator, events, keys, rate, sink, mode, COUNT);
    }

    /** The job's middle operator as the benchmarks mostly run it: one keyed-count. */
    static final String COUNT = "\"type\": \"keyed-count\"";

    /**
     * A fresh topology of the job whose middle operator {@code count} is {@code count} (its JSON members other than id
     * and inputs: a type, or versions and voting).
     */
    ExecutionPlan plan(String generator, long events, int keys, long rate, String sink, RecoveryMode mode,
                       String count) {
        String id = "bench-" + (++runs);
        String sinkConfig = sink.equals("log-sink") ? "{\"every\": 100000000}" : "{}";
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "%s", "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                  {"id": "count", %s, "inputs": [{"from": "source", "partitioning": "key"}]},
                  {"id": "sink", "type": "%s", "config": %s, "inputs": [{"from": "count", "partitioning": "key"}]}
                ]}""".formatted(id, generator, events, keys, rate, count, sink, sinkConfig))).withRecoveryMode(mode);
    }

    void deploy(ExecutionPlan plan) throws Exception {
        Map<TaskId, HostId> hosts = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id(), task.id().operator().value().equals("source") ? local.id() : childId);
        }
        TaskPlacement placement = new TaskPlacement(hosts,
                Map.of(local.id(), local.dataEndpoint(), childId, child.endpoint()));
        child.request("DEPLOY " + JSON.writeValueAsString(new DeployCommand(plan, PlacementWire.of(placement))), "OK");
        local.deploy(plan, placement);
    }

    /** Whether the sink has seen the end of the stream; throws if a task failed. */
    boolean isFinished(ExecutionPlan plan) throws Exception {
        String sinkTask = plan.topology() + "/sink#0";
        boolean finished = false;
        for (JsonNode report : JSON.readTree(child.request("REPORT", "REPORT "))) {
            String status = report.get("status").asString();
            if (status.equals(TaskStatus.FAILED.name())) {
                throw new IllegalStateException(report.get("task").asString() + " failed: " + report.get("failure"));
            }
            if (report.get("task").asString().equals(sinkTask)) {
                finished = status.equals(TaskStatus.FINISHED.name());
            }
        }
        for (TaskReport report : local.taskReports()) {
            if (report.status() == TaskStatus.FAILED) {
                throw new IllegalStateException(report.task() + " failed: " + report.failure());
            }
        }
        return finished;
    }

    void awaitFinished(ExecutionPlan plan) throws Exception {
        while (!isFinished(plan)) {
            Thread.sleep(20);
        }
    }

    void cancel(ExecutionPlan plan) throws Exception {
        local.cancel(plan.topology());
        child.request("CANCEL " + plan.topology(), "OK");
    }

    /** Runs a bounded job to its end and returns the events per second it achieved. */
    double measureThroughput(long events, int keys) throws Exception {
        return measureThroughput(events, keys, COUNT);
    }

    /** As {@link #measureThroughput(long, int)}, with {@code count} as the middle operator. */
    double measureThroughput(long events, int keys, String count) throws Exception {
        ExecutionPlan plan = plan("generator", events, keys, 0, "log-sink", RecoveryMode.GLOBAL, count);
        long start = System.nanoTime();
        deploy(plan);
        awaitFinished(plan);
        double seconds = (System.nanoTime() - start) / 1e9;
        cancel(plan);
        return events / seconds;
    }

    /**
     * Runs the job with a generator that stamps wall-clock micros into the event time and a sink that records
     * arrival minus event time (the first 3 s discarded at a set rate); the child host's latency figures.
     */
    Map<String, Object> measureLatency(long events, int keys, long rate, String count) throws Exception {
        ExecutionPlan plan = plan("wallclock-generator", events, keys, rate, "latency-sink", RecoveryMode.GLOBAL,
                count);
        deploy(plan);
        Thread.sleep(rate > 0 ? 3_000 : 0);
        child.request("LATENCY", "LATENCY ");
        awaitFinished(plan);
        @SuppressWarnings("unchecked")
        Map<String, Object> latency = JSON.readValue(child.request("LATENCY", "LATENCY "), Map.class);
        cancel(plan);
        return latency;
    }

    @Override
    public void close() throws Exception {
        try {
            child.close();
        } finally {
            local.close();
        }
    }
}
