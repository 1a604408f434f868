package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionRecorder;
import io.steadfast.runtime.recovery.DecisionReplay;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a task's checkpoint snapshots: on the task thread it detaches the operator's state with the channels'
 * positions and forwards the barrier; the snapshot is encoded and reported on the snapshot writer, while processing
 * goes on. Task thread only.
 */
final class TaskCheckpoints {

    private static final Logger LOG = LoggerFactory.getLogger(TaskCheckpoints.class);

    private final TaskId id;
    private final String operatorType;
    private final OperatorDriver driver;
    private final TaskOutput output;
    private final TaskInputs input;
    private final CheckpointListener.OfTask listener;
    private final Executor snapshotWriter;
    private DecisionReplay<?> replay;
    /** The newest checkpoint whose barrier this task sent (or resumed after). */
    private long lastBarrier;

    TaskCheckpoints(TaskId id, String operatorType, OperatorDriver driver, TaskWiring wiring, TaskInputs input) {
        this.id = id;
        this.operatorType = operatorType;
        this.driver = driver;
        this.output = wiring.output();
        this.input = input;
        this.listener = wiring.checkpoints();
        this.snapshotWriter = wiring.snapshotWriter();
    }

    /** The replay whose position a snapshot taken while it replays restarts from. */
    void replayedBy(DecisionReplay<?> replay) {
        this.replay = replay;
    }

    /** The task resumes after the barrier of {@code checkpointId} (recovered from its snapshot). */
    void resumeAfter(long checkpointId) {
        lastBarrier = checkpointId;
    }

    /**
     * A source sends the barrier of {@code checkpointId}, logging where, unless it sent that or a newer one already.
     */
    void sendSourceBarrier(long checkpointId, DecisionRecorder decisions) {
        if (checkpointId > lastBarrier) {
            decisions.sourceBarrier(checkpointId, ((SourceDriver) driver).position());
            complete(checkpointId);
        }
    }

    /**
     * Detaches the operator's state, forwards the barrier and releases held input on the task thread; the
     * snapshot is encoded and reported on the snapshot writer.
     */
    void complete(long checkpointId) {
        long start = System.nanoTime();
        lastBarrier = Math.max(lastBarrier, checkpointId);
        long logOffset = replay.markCheckpoint(checkpointId);
        Map<Integer, Long> outputPositions = output.broadcastBarrier(checkpointId, System.nanoTime());
        OperatorSnapshot.Prepared prepared = OperatorSnapshot.prepare(operatorType, driver,
                new ChannelPositions(input.positions(), outputPositions, logOffset));
        long syncNanos = System.nanoTime() - start;
        input.releaseAligned();
        snapshotWriter.execute(() -> {
            try {
                listener.onSnapshot(checkpointId, prepared.write(), syncNanos);
            } catch (RuntimeException e) {
                LOG.error("Task {} could not write its snapshot of checkpoint {}", id, checkpointId, e);
            }
        });
    }
}
