package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link CheckpointReporter} that keeps every report as text: {@code ack <task> <id>} or {@code nack ...}. */
public final class RecordingReporter implements CheckpointReporter {

    public final List<String> acks = new CopyOnWriteArrayList<>();
    public final List<String> nacks = new CopyOnWriteArrayList<>();
    /** The incarnation each ack named, in the order of {@link #acks}. */
    public final List<Integer> ackedIncarnations = new CopyOnWriteArrayList<>();

    @Override
    public void acknowledge(TaskId task, long checkpointId, SnapshotAck ack) {
        ackedIncarnations.add(ack.incarnation());
        acks.add(task + " " + checkpointId + " " + ack.sizeBytes());
    }

    /** Each {@link #acknowledgeAll} call as {@code <checkpointId> [<task>, ...]}; its acks go to {@link #acks} too. */
    public final List<String> ackBatches = new CopyOnWriteArrayList<>();

    @Override
    public void acknowledgeAll(long checkpointId, Map<TaskId, SnapshotAck> batch) {
        ackBatches.add(checkpointId + " " + batch.keySet());
        CheckpointReporter.super.acknowledgeAll(checkpointId, batch);
    }

    @Override
    public void decline(TaskId task, int incarnation, long checkpointId, String reason) {
        nacks.add(task + " " + checkpointId + " " + reason);
    }
}
