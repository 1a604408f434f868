package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.Barrier;
import io.steadfast.runtime.codec.DecisionRecord;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.Watermark;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionRecorder;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The input side of a task that is not a source: takes its input frames record by record into the operator, counting
 * each channel's position, aligning barriers and applying watermarks (a task's watermark is the smallest among its
 * input channels, each channel's the latest it carried). Task thread only.
 */
final class TaskInputs {

    /** What the inputs tell their task. */
    interface Events {

        /** Every input carried the barrier of {@code checkpointId} (or ended): the task snapshots and forwards it. */
        void aligned(long checkpointId);

        /** Every input carried {@link Long#MAX_VALUE} as its watermark: the task is finished. */
        void ended();
    }

    private final TaskId id;
    private final OperatorDriver driver;
    private final TaskOutput output;
    private final EventOutput operatorOutput;
    private final VersionBallots ballots;
    private final RecordBatchReader reader;
    private final TaskMetrics metrics;
    private final TaskMailbox mailbox;
    private final DecisionRecorder decisions;
    private final Events task;
    private final List<ChannelId> inputs;
    private final Map<ChannelId, Integer> inputIndex = new HashMap<>();
    private final Map<ChannelId, long[]> inputWatermarks = new HashMap<>();
    /** Per input channel, the sequence number of the last sequenced record taken. */
    private final Map<ChannelId, long[]> inputSeqs = new HashMap<>();
    private final BarrierAligner aligner;
    private final Deque<BarrierAligner.HeldInput> ready = new ArrayDeque<>();

    TaskInputs(TaskId id, OperatorDriver driver, TaskWiring wiring, TaskMailbox mailbox, DecisionRecorder decisions,
               Events events) {
        this.id = id;
        this.driver = driver;
        this.output = wiring.output();
        this.operatorOutput = wiring.operatorOutput();
        this.ballots = wiring.ballots();
        this.reader = wiring.reader();
        this.metrics = wiring.metrics();
        this.mailbox = mailbox;
        this.decisions = decisions;
        this.task = events;
        this.inputs = wiring.inputs();
        for (int i = 0; i < inputs.size(); i++) {
            inputIndex.put(inputs.get(i), i);
            inputWatermarks.put(inputs.get(i), new long[] {Long.MIN_VALUE});
            inputSeqs.put(inputs.get(i), new long[] {0});
        }
        this.aligner = new BarrierAligner(inputs);
    }

    /** Where the operator's PEs emit to (see {@link TaskWiring#operatorOutput()}). */
    EventOutput operatorOutput() {
        return operatorOutput;
    }

    /** The last sequence number taken from each input channel. */
    Map<ChannelId, long[]> seqs() {
        return inputSeqs;
    }

    boolean has(ChannelId channel) {
        return inputSeqs.containsKey(channel);
    }

    /** The last sequence number taken from each input channel, by channel index: a snapshot's input positions. */
    Map<Integer, Long> positions() {
        Map<Integer, Long> positions = new HashMap<>();
        inputSeqs.forEach((channel, seq) -> positions.put(channel.index(), seq[0]));
        return positions;
    }

    /** Counts each input channel on from its position in {@code positions}. */
    void resumeAt(ChannelPositions positions) {
        for (Map.Entry<ChannelId, long[]> input : inputSeqs.entrySet()) {
            input.getValue()[0] = positions.inputs().get(input.getKey().index());
        }
    }

    /** @throws IllegalArgumentException if {@code positions} lack one of the input channels */
    void requirePositionsIn(ChannelPositions positions) {
        for (ChannelId input : inputSeqs.keySet()) {
            if (!positions.inputs().containsKey(input.index())) {
                throw new IllegalArgumentException("the snapshot of task " + id + " has no position for input channel "
                        + input);
            }
        }
    }

    /** Input a checkpoint's alignment held back, processed next. */
    void releaseAligned() {
        ready.addAll(aligner.release());
    }

    /** Input to process next, before new frames. */
    void processNext(Collection<BarrierAligner.HeldInput> queued) {
        ready.addAll(queued);
    }

    /** The next frame wrapped for processing, counted in; null if none waits. */
    BarrierAligner.HeldInput pollFrame() {
        InputFrame frame = mailbox.pollFrame();
        if (frame == null) {
            return null;
        }
        metrics.addFrameIn(frame.payload().length);
        return new BarrierAligner.HeldInput(frame);
    }

    /**
     * When the input {@link #step()} takes next reached the host ({@link InputFrame#arrivedMillis()});
     * {@link Long#MAX_VALUE} if none waits.
     */
    long nextArrivalMillis() {
        BarrierAligner.HeldInput held = ready.peek();
        InputFrame next = held != null ? held.frame : mailbox.peekFrame();
        return next == null ? Long.MAX_VALUE : next.arrivedMillis();
    }

    /** Processes the next input held back or arrived, running freely; returns whether there was any. */
    boolean step() {
        BarrierAligner.HeldInput held = ready.poll();
        if (held == null) {
            held = pollFrame();
        }
        if (held == null) {
            return false;
        }
        if (aligner.isBlocked(held.frame.channel())) {
            aligner.hold(held.frame.channel(), held);
        } else {
            run(held, Integer.MAX_VALUE, false);
        }
        return true;
    }

    /**
     * Processes a frame's records from where it stopped, taking at most {@code budget} sequenced records (a
     * replayed run takes exactly its length). Running freely it stops after a barrier that blocks the channel
     * and holds the rest; replaying it never holds (the log already has the order alignment produced) and
     * ignores the watermarks in the stream (the log has the ones applied). The frame is acknowledged (credit
     * returned) only once all of it is processed.
     *
     * @return the sequenced records taken
     * @throws UndecodableFrameException if the frame cannot be decoded: it is not acknowledged, and the task fails
     */
    int run(BarrierAligner.HeldInput input, int budget, boolean replaying) {
        InputFrame frame = input.frame;
        if (input.records == null) {
            try {
                input.records = reader.decode(frame.payload(), frame.records(), frame.skip());
            } catch (CodecException e) {
                // the data plane checked the frame's checksum: it arrived as sent, and a resend would not help.
                // Counting it consumed would lose its records silently
                metrics.addMalformedFrame();
                long takenBefore = inputSeqs.get(frame.channel())[0]; // frames of a channel are taken in order
                throw new UndecodableFrameException(id, frame.channel(), takenBefore + 1 - frame.skip(),
                        frame.records(), e);
            }
        }
        long startNanos = System.nanoTime();
        Object[] records = input.records;
        ChannelId channel = frame.channel();
        int index = inputIndex.get(channel);
        long[] seq = inputSeqs.get(channel);
        int taken = 0;
        long events = 0;
        KeyedProcessorDriver keyed = (KeyedProcessorDriver) driver;
        for (int i = input.next; i < records.length; i++) {
            Object record = records[i];
            if (record instanceof DecisionRecord) {
                continue; // stored by the host as the frame arrived
            }
            if (record instanceof Watermark watermark) {
                if (!replaying) {
                    applyWatermark(channel, watermark.timestamp());
                }
                continue;
            }
            if (input.toSkip > 0) {
                input.toSkip--;
                continue;
            }
            if (taken == budget) {
                input.next = i;
                countTaken(frame, events, startNanos);
                return taken;
            }
            seq[0]++;
            taken++;
            decisions.took(index);
            if (record instanceof Event<?> event) {
                events++;
                @SuppressWarnings("unchecked")
                Event<Object> typed = (Event<Object>) event;
                if (ballots == null) {
                    keyed.process(typed, output);
                } else {
                    ballots.process(keyed, typed, channel, seq[0]);
                }
            } else if (record instanceof Barrier barrier) {
                BarrierAligner.Outcome outcome = aligner.onBarrier(channel, barrier.checkpointId());
                ready.addAll(aligner.takeAbandoned());
                if (outcome == BarrierAligner.Outcome.ALIGNED) {
                    task.aligned(barrier.checkpointId());
                } else if (outcome == BarrierAligner.Outcome.WAITING && !replaying) {
                    input.next = i + 1;
                    aligner.holdFirst(channel, input);
                    countTaken(frame, events, startNanos);
                    return taken;
                }
            }
        }
        input.next = records.length;
        countTaken(frame, events, startNanos);
        frame.consumed();
        return taken;
    }

    /** Counts {@code events} of {@code frame} taken in by a stretch of {@link #run} that began at {@code startNanos}. */
    private void countTaken(InputFrame frame, long events, long startNanos) {
        metrics.addRecordsIn(events);
        metrics.addProcessing(events, Math.max(0, startNanos - frame.arrivedNanos()), System.nanoTime() - startNanos);
    }

    void applyWatermark(ChannelId channel, long watermark) {
        long[] slot = inputWatermarks.get(channel);
        if (slot == null || watermark <= slot[0]) {
            return;
        }
        decisions.appliedWatermark(inputIndex.get(channel), watermark);
        slot[0] = watermark;
        if (watermark == Long.MAX_VALUE && aligner.onEnded(channel)) {
            task.aligned(aligner.aligningCheckpoint());
        }
        long min = Long.MAX_VALUE;
        for (long[] other : inputWatermarks.values()) {
            min = Math.min(min, other[0]);
        }
        if (driver instanceof KeyedProcessorDriver keyed && min > keyed.watermark()) {
            keyed.advanceWatermark(min, operatorOutput);
            output.advanceWatermark(min);
            if (min == Long.MAX_VALUE) {
                output.flushAll(System.nanoTime());
                task.ended();
            }
        }
    }
}
