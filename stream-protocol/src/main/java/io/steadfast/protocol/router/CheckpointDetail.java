package io.steadfast.protocol.router;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a topology with each task's acknowledgement, {@code GET /api/v1/topologies/{id}/checkpoints/
 * {checkpointId}}. The members of its {@link CheckpointSummary} are written flat in its JSON form: {@code topology,
 * checkpointId, status, triggeredAt, completedAt, durationMillis, sizeBytes, failureReason, failureMessage, tasks,
 * missingTasks}.
 *
 * @param topology     the topology id
 * @param summary      the checkpoint as {@link TopologyCheckpoints} lists it
 * @param tasks        every task that must acknowledge it, acknowledged or not, in the order the store keeps them
 * @param missingTasks the tasks of {@code tasks} that have not acknowledged it (yet, while it is PENDING)
 */
public record CheckpointDetail(TopologyId topology, @JsonUnwrapped CheckpointSummary summary, List<TaskAckState> tasks,
                               List<TaskId> missingTasks) {

    public CheckpointDetail {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        missingTasks = missingTasks == null ? List.of() : List.copyOf(missingTasks);
    }

    /**
     * The detail of {@code expected} tasks of which those in {@code acks} acknowledged: a row per expected task in
     * that order, then one per ack of a task not expected (none, from a store that checks its acks).
     */
    public static CheckpointDetail of(TopologyId topology, CheckpointSummary summary, List<TaskId> expected,
                                      Map<TaskId, TaskAckState> acks) {
        List<TaskAckState> tasks = new ArrayList<>();
        List<TaskId> missing = new ArrayList<>();
        for (TaskId task : expected) {
            TaskAckState ack = acks.get(task);
            if (ack == null) {
                tasks.add(TaskAckState.missing(task));
                missing.add(task);
            } else {
                tasks.add(ack);
            }
        }
        acks.forEach((task, ack) -> {
            if (!expected.contains(task)) {
                tasks.add(ack);
            }
        });
        return new CheckpointDetail(topology, summary, tasks, missing);
    }

    /** This detail with each task's host as {@code placement} names it (null for a task it does not name). */
    public CheckpointDetail withHosts(Map<TaskId, HostId> placement) {
        return new CheckpointDetail(topology, summary, tasks.stream()
                .map(task -> task.withHost(placement.get(task.task()))).toList(), missingTasks);
    }

    /**
     * This detail with the tasks of {@code acks} that are not acked here marked acked as {@code acks} says (acks that
     * the store has not recorded yet), and the tasks missing without them.
     */
    public CheckpointDetail withAcks(Map<TaskId, TaskAckState> acks) {
        List<TaskAckState> merged = tasks.stream()
                .map(task -> task.acked() ? task : acks.getOrDefault(task.task(), task).withHost(task.host()))
                .toList();
        return new CheckpointDetail(topology, summary, merged, missingTasks.stream()
                .filter(task -> !acks.containsKey(task)).toList());
    }

    /** The row of {@code task}, if it is one of the checkpoint's. */
    public Optional<TaskAckState> task(TaskId task) {
        return tasks.stream().filter(state -> state.task().equals(task)).findFirst();
    }

    /**
     * One task of the checkpoint and its acknowledgement, if it gave one. The members of the ack are null while it
     * did not.
     *
     * @param task        the task
     * @param host        the host the router places the task on now (where a missing ack is to come from; after a
     *                    recovery not necessarily the host that took an acknowledged snapshot), or null if the
     *                    router places it nowhere
     * @param acked       whether the task acknowledged the checkpoint: its snapshot is stored
     * @param ackedAt     when the store recorded the ack; null if it did not (yet): for a PENDING checkpoint the
     *                    router holds the acks it took until the checkpoint completes
     * @param sizeBytes   the size of its stored snapshot, or null
     * @param syncMillis  the synchronous part of taking the snapshot, on the task's thread, or null
     * @param asyncMillis the asynchronous part, until the snapshot was stored, or null
     */
    public record TaskAckState(TaskId task, @Nullable HostId host, boolean acked, @Nullable Instant ackedAt,
                               @Nullable Long sizeBytes, @Nullable Long syncMillis, @Nullable Long asyncMillis) {

        /** A task that acknowledged, its host not named. */
        public static TaskAckState acked(TaskId task, Instant ackedAt, long sizeBytes, long syncMillis,
                                         long asyncMillis) {
            return new TaskAckState(task, null, true, ackedAt, sizeBytes, syncMillis, asyncMillis);
        }

        /** A task that has not acknowledged, its host not named. */
        public static TaskAckState missing(TaskId task) {
            return new TaskAckState(task, null, false, null, null, null, null);
        }

        public TaskAckState withHost(@Nullable HostId host) {
            return new TaskAckState(task, host, acked, ackedAt, sizeBytes, syncMillis, asyncMillis);
        }
    }
}
