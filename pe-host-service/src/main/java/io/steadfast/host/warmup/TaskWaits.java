package io.steadfast.host.warmup;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** The warm-ups' waits for the host's tasks, checked every 20 ms on a scheduler thread, never by sleeping. */
final class TaskWaits {

    private static final long CHECK_EVERY_MILLIS = 20;

    private final ProcessingNode node;

    TaskWaits(ProcessingNode node) {
        this.node = node;
    }

    /** Whether every task of the topology here FINISHED within {@code limit}. */
    boolean finishWithin(TopologyId topology, Duration limit) throws InterruptedException {
        return holdsWithin(() -> reports(topology).stream().allMatch(report -> report.status() == TaskStatus.FINISHED),
                limit);
    }

    /** The reports of the topology's tasks here. */
    List<TaskReport> reports(TopologyId topology) {
        return node.taskReports().stream().filter(report -> report.task().startsWith(topology.value() + "/"))
                .toList();
    }

    /** Whether {@code condition} held at a check within {@code limit}. */
    static boolean holdsWithin(BooleanSupplier condition, Duration limit) throws InterruptedException {
        CompletableFuture<Void> held = new CompletableFuture<>();
        ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(
                new DaemonThreads("steadfast-warm-up-check"));
        try {
            checks.scheduleWithFixedDelay(() -> {
                if (condition.getAsBoolean()) {
                    held.complete(null);
                }
            }, 0, CHECK_EVERY_MILLIS, TimeUnit.MILLISECONDS);
            held.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } finally {
            checks.shutdownNow();
        }
    }
}
