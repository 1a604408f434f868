package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.Map;
import java.util.Objects;

/**
 * What lost tasks are restored from in a local recovery.
 *
 * @param checkpointId     the completed checkpoint the snapshots belong to
 * @param snapshots        each lost task's snapshot of that checkpoint
 * @param determinants     per lost task, its logged decisions from its snapshot's log offset on, the longest run
 *                         any live host held (none for a task whose decisions nobody has seen)
 * @param latestTriggered  the latest checkpoint the coordinator has triggered: recovered sources send the
 *                         barriers up to it that they missed, since the tasks downstream align on every id
 */
public record InPlaceRestore(long checkpointId, Map<TaskId, OperatorSnapshot> snapshots,
                             Map<TaskId, byte[]> determinants, long latestTriggered) {

    public InPlaceRestore {
        snapshots = Map.copyOf(Objects.requireNonNull(snapshots, "snapshots"));
        determinants = Map.copyOf(Objects.requireNonNull(determinants, "determinants"));
    }

    byte[] determinantsOf(TaskId task) {
        return determinants.getOrDefault(task, new byte[0]);
    }
}
