package io.steadfast.runtime.task;

import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.recovery.DecisionLog;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * What a {@link StreamTask} is connected to, as {@link TaskFactory} makes it.
 *
 * @param output         its output channels' writers
 * @param inputs         its input channels, in the order the decision log numbers them
 * @param reader         decodes its input frames
 * @param metrics        its counters
 * @param checkpoints    told of every snapshot it takes for a checkpoint
 * @param snapshotWriter encodes its checkpoint snapshots off the task thread and calls {@code checkpoints} there
 * @param log            its own decision log
 * @param ballots        for a version task of an N-version operator, what turns its PE's output into ballots; null
 *                       for other tasks
 */
record TaskWiring(TaskOutput output, List<ChannelId> inputs, RecordBatchReader reader, TaskMetrics metrics,
                  CheckpointListener.OfTask checkpoints, Executor snapshotWriter, DecisionLog log,
                  VersionBallots ballots) {

    TaskWiring {
        inputs = List.copyOf(inputs);
    }

    /** Where the operator's PEs emit to: the ballots of a version task, the output of any other. */
    EventOutput operatorOutput() {
        return ballots == null ? output : ballots;
    }
}
