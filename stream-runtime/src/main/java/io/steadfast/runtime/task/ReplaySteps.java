package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionRecorder;
import io.steadfast.runtime.recovery.ReplayedTask;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** A {@link StreamTask}'s own steps, as its {@link io.steadfast.runtime.recovery.DecisionReplay} takes them. */
final class ReplaySteps implements ReplayedTask<BarrierAligner.HeldInput> {

    private final TaskId id;
    private final OperatorDriver driver;
    private final TaskInputs input;
    private final TaskCheckpoints checkpoints;
    private final DecisionRecorder decisions;
    private final IntUnaryOperator emitFromSource;

    /** @param emitFromSource lets the task's source emit up to the given number of events, as it polls it */
    ReplaySteps(TaskId id, OperatorDriver driver, TaskInputs input, TaskCheckpoints checkpoints,
                DecisionRecorder decisions, IntUnaryOperator emitFromSource) {
        this.id = id;
        this.driver = driver;
        this.input = input;
        this.checkpoints = checkpoints;
        this.decisions = decisions;
        this.emitFromSource = emitFromSource;
    }

    @Override
    public TaskId id() {
        return id;
    }

    @Override
    public BarrierAligner.HeldInput pollArrived() {
        return input.pollFrame();
    }

    @Override
    public ChannelId channelOf(BarrierAligner.HeldInput held) {
        return held.frame.channel();
    }

    @Override
    public int take(BarrierAligner.HeldInput held, int budget) {
        return input.run(held, budget, true);
    }

    @Override
    public boolean isDone(BarrierAligner.HeldInput held) {
        return held.isDone();
    }

    @Override
    public void applyWatermark(ChannelId channel, long value) {
        input.applyWatermark(channel, value);
    }

    @Override
    public void advanceProcessingTime(long millis) {
        ((KeyedProcessorDriver) driver).advanceProcessingTime(millis, input.operatorOutput());
    }

    @Override
    public int emitFromSource(int maxEvents) {
        return emitFromSource.applyAsInt(maxEvents);
    }

    @Override
    public long sourcePosition() {
        return ((SourceDriver) driver).position();
    }

    @Override
    public void completeCheckpoint(long checkpointId) {
        checkpoints.complete(checkpointId);
    }

    @Override
    public void sendBarrier(long checkpointId) {
        checkpoints.sendSourceBarrier(checkpointId, decisions);
    }

    @Override
    public void runFreely(List<BarrierAligner.HeldInput> queued) {
        input.processNext(queued);
    }
}
