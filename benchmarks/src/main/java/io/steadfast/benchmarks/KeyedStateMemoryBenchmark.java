package io.steadfast.benchmarks;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * A keyed count holding N distinct keys (default 1,000,000) on one host: generator → keyed-count → log-sink in
 * this JVM. Run it with {@code -Xmx512m}; it prints the heap used after GC before and after, and bytes per key.
 */
public final class KeyedStateMemoryBenchmark {

    private KeyedStateMemoryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        System.out.printf("Keyed state memory: %,d distinct keys, max heap %,d MiB%n", keys,
                Runtime.getRuntime().maxMemory() >> 20);
        HostId hostId = new HostId("memory-host");
        try (HostRuntime host = new HostRuntime(hostId, OperatorRegistry.load(),
                DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), Clock.systemUTC())) {
            ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                    {"id": "memory", "operators": [
                      {"id": "source", "type": "generator", "config": {"count": %d, "keys": %d}},
                      {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
                      {"id": "sink", "type": "log-sink", "config": {"every": 100000000}, "inputs": [{"from": "count"}]}
                    ]}""".formatted(keys, keys)));
            Map<TaskId, HostId> placement = new HashMap<>();
            plan.tasks().stream().map(TaskSpec::id).forEach(id -> placement.put(id, hostId));
            long before = usedAfterGc();
            long start = System.nanoTime();
            host.deploy(plan, new TaskPlacement(placement, Map.of(hostId, host.dataEndpoint())));
            TaskId sink = TaskId.parse("memory/sink#0");
            while (host.task(sink).orElseThrow().status() != TaskStatus.FINISHED) {
                Thread.sleep(50);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int held = host.task(TaskId.parse("memory/count#0")).orElseThrow()
                    .call(driver -> ((KeyedProcessorDriver) driver).keyCount()).join();
            long after = usedAfterGc();
            System.out.println();
            System.out.println("| figure | value |");
            System.out.println("| --- | --- |");
            System.out.printf("| max heap (-Xmx) | %,d MiB |%n", Runtime.getRuntime().maxMemory() >> 20);
            System.out.printf("| distinct keys held by keyed-count | %,d |%n", held);
            System.out.printf("| heap used after GC, before deploy | %,.1f MiB |%n", before / 1048576.0);
            System.out.printf("| heap used after GC, holding the keys | %,.1f MiB |%n", after / 1048576.0);
            System.out.printf("| bytes per key (PE instance + state + key) | %,.0f |%n", (after - before) / (double) held);
            System.out.printf("| time to ingest %,d events | %.1f s |%n", keys, seconds);
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
