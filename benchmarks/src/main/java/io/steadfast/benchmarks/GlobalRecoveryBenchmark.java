package io.steadfast.benchmarks;

import io.steadfast.cluster.ClusterStartup;
import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.client.RecoveryView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TaskView;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Global recovery time after one host process is killed with SIGKILL, at job sizes of 4, 8, 16 and 32 tasks:
 * a checkpoint-service, a router and hosts run as real processes (the service jars must be built). For each
 * size the job runs until two checkpoints completed, a host running a keyed-count task is killed, and the
 * router's recovery record gives detection (heartbeat silence until the router noticed), restore (until every
 * task was redeployed from the checkpoint) and catch-up (until the sinks were back where they were).
 */
public final class GlobalRecoveryBenchmark {

    private static final int HOSTS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final ClusterProcesses processes;
    private final ClusterStartup startup;
    private final RouterClient router;

    private GlobalRecoveryBenchmark(ClusterProcesses processes, ClusterStartup startup, RouterClient router) {
        this.processes = processes;
        this.startup = startup;
        this.router = router;
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length > 0
                ? Arrays.stream(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {4, 8, 16, 32};
        Path runDir = Files.createTempDirectory("steadfast-recovery-bench");
        System.out.println("Global recovery benchmark; process logs in " + runDir);
        try (ClusterProcesses processes = new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir)) {
            ClusterStartup startup = new ClusterStartup(processes, TIMEOUT, line -> System.out.println("  " + line));
            startup.startCheckpointServiceOnFreePort();
            RouterClient router = startup.startRouterOnFreePort();
            startup.startHosts(router, HOSTS);
            new GlobalRecoveryBenchmark(processes, startup, router).run(sizes);
        }
    }

    private void run(int[] sizes) throws Exception {
        List<String> rows = new ArrayList<>();
        for (int tasks : sizes) {
            RecoveryView recovery = measure(tasks);
            long restore = recovery.restoreMillis() == null ? -1 : recovery.restoreMillis();
            long catchUp = recovery.catchUpMillis() == null ? -1 : recovery.catchUpMillis();
            rows.add("| %d | %d ms | %d ms | %d ms | %d ms |".formatted(tasks, recovery.detectionMillis(), restore,
                    catchUp, recovery.detectionMillis() + restore + catchUp));
        }
        System.out.println();
        System.out.println("| tasks | detection | restore | catch-up | total |");
        System.out.println("| --- | --- | --- | --- | --- |");
        rows.forEach(System.out::println);
    }

    /** Deploys a job of {@code tasks} tasks (1:2:1 source, count, sink), kills a host, returns the recovery. */
    private RecoveryView measure(int tasks) throws Exception {
        while (processes.liveHostIds().size() < HOSTS) {
            startup.startHost(router, processes.nextHostId());
        }
        int quarter = Math.max(1, tasks / 4);
        String id = "recovery-" + tasks;
        long rate = 40_000;
        String spec = """
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d,
                   "config": {"count": %d, "keys": 10000, "ratePerSecond": %d}},
                  {"id": "count", "type": "keyed-count", "parallelism": %d, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "count"}]}
                ]}""".formatted(id, quarter, rate * 60, rate, tasks - 2 * quarter, quarter);
        TopologyId topology = router.deploy(spec).id();
        await(() -> router.checkpoints(topology).completedCount() >= 2, "two completed checkpoints of " + id);
        HostId victim = hostRunningCount(router.topology(topology));
        System.out.printf("%d tasks: killing %s%n", tasks, victim);
        processes.killHost(victim);
        await(() -> recoveryOf(topology, victim).map(RecoveryView::isRecovered).orElse(false)
                && recoveryOf(topology, victim).map(r -> r.catchUpMillis() != null).orElse(false),
                "recovery of " + id);
        RecoveryView recovery = recoveryOf(topology, victim).orElseThrow();
        router.delete(topology);
        return recovery;
    }

    private Optional<RecoveryView> recoveryOf(TopologyId topology, HostId failed) {
        return router.recoveries().stream()
                .filter(r -> r.topology().equals(topology) && r.failedHost().equals(failed)).findFirst();
    }

    private HostId hostRunningCount(TopologyView view) {
        return view.tasks().stream().filter(task -> task.task().contains("/count#")).map(TaskView::host)
                .filter(host -> host != null && processes.liveHostIds().contains(host)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no live host runs a count task: " + view.tasks()));
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + TIMEOUT + " waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
