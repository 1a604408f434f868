package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.source.Source;
import io.steadfast.runtime.codec.Barrier;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.Watermark;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task: a single mailbox thread that runs an operator driver. Each turn it runs the queued control mails,
 * then (if every output channel has credit) either polls the source or processes the next input frame, then
 * flushes output batches whose linger time is up; with nothing to do it parks until woken or the next flush.
 *
 * <h2>Threading</h2>
 * Everything but {@link #deliver}, {@link #call}, {@link #cancel} and the getters runs on the task thread.
 * Other threads only enqueue. The thread is stopped by a mail, never by interruption.
 *
 * <h2>Watermarks</h2>
 * A task's watermark is the smallest watermark among its input channels (each channel's is the latest it
 * carried); a source's is the latest event time it emitted. Timers fire as it advances and it travels on
 * to every output channel. When every input has carried {@link Long#MAX_VALUE} (or the source is exhausted)
 * the task flushes and is {@link TaskStatus#FINISHED}, still answering calls.
 */
public final class StreamTask {

    private static final Logger LOG = LoggerFactory.getLogger(StreamTask.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long PACED_SOURCE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final TaskId id;
    private final String operatorType;
    private final OperatorDriver driver;
    private final TaskOutput output;
    private final RecordBatchReader reader;
    private final TaskSettings settings;
    private final TaskMailbox mailbox = new TaskMailbox();
    private final TaskMetrics metrics;
    private final Map<ChannelId, long[]> inputWatermarks = new HashMap<>();
    /** Per input channel, the sequence number of the last sequenced record taken. */
    private final Map<ChannelId, long[]> inputSeqs = new HashMap<>();
    private final BarrierAligner aligner;
    private final Deque<BarrierAligner.HeldInput> ready = new ArrayDeque<>();
    private final CheckpointListener checkpointListener;
    private final Executor snapshotWriter;
    private final Thread thread;
    private volatile TaskStatus status = TaskStatus.CREATED;
    private volatile String failure;
    private boolean stopRequested;

    StreamTask(TaskId id, String operatorType, OperatorDriver driver, TaskOutput output, List<ChannelId> inputs,
               RecordBatchReader reader, TaskSettings settings, TaskMetrics metrics,
               CheckpointListener checkpointListener, Executor snapshotWriter) {
        this.id = id;
        this.operatorType = operatorType;
        this.driver = driver;
        this.output = output;
        this.reader = reader;
        this.settings = settings;
        this.metrics = metrics;
        for (ChannelId input : inputs) {
            inputWatermarks.put(input, new long[] {Long.MIN_VALUE});
            inputSeqs.put(input, new long[] {0});
        }
        this.aligner = new BarrierAligner(inputs);
        this.checkpointListener = checkpointListener;
        this.snapshotWriter = snapshotWriter;
        this.thread = new Thread(this::run, "steadfast-task-" + id);
        this.thread.setDaemon(true);
        mailbox.bindOwner(thread);
        output.onCreditAvailable(mailbox::wakeUp);
    }

    public TaskId id() {
        return id;
    }

    public String operatorType() {
        return operatorType;
    }

    /** Snapshots the operator on the task thread, between two frames. */
    public CompletableFuture<OperatorSnapshot> snapshot() {
        return call(operator -> OperatorSnapshot.take(operatorType, operator));
    }

    public TaskStatus status() {
        return status;
    }

    /** The failure's class, message and stack text, or null. */
    public String failure() {
        return failure;
    }

    public TaskMetrics metrics() {
        return metrics;
    }

    /** Input frames waiting to be processed. */
    public int queuedFrames() {
        return mailbox.queuedFrames();
    }

    /**
     * Replaces the operator's state with a snapshot, for a deployment on fresh channels (a global restore);
     * only before {@link #start()}.
     */
    public void restore(OperatorSnapshot snapshot) {
        requireNotStarted();
        snapshot.restoreInto(operatorType, driver);
    }

    /**
     * Replaces the operator's state with a snapshot and resumes the channels where they stood at its barrier
     * (a local recovery): input is counted on from the barrier, output numbered from one after it, so that
     * receivers drop the regenerated records they already have. Only before {@link #start()}.
     *
     * @throws IllegalArgumentException if the snapshot lacks the position of one of the task's channels
     */
    public void restoreInPlace(OperatorSnapshot snapshot) {
        requireNotStarted();
        ChannelPositions positions = snapshot.positions();
        for (Map.Entry<ChannelId, long[]> input : inputSeqs.entrySet()) {
            Long seq = positions.inputs().get(input.getKey().index());
            if (seq == null) {
                throw new IllegalArgumentException("the snapshot of task " + id + " has no position for input channel "
                        + input.getKey());
            }
            input.getValue()[0] = seq;
        }
        output.resumeAt(positions);
        snapshot.restoreInto(operatorType, driver);
    }

    private void requireNotStarted() {
        if (status != TaskStatus.CREATED || thread.isAlive()) {
            throw new IllegalStateException("task " + id + " can only be restored before it starts; it is " + status);
        }
    }

    /**
     * Checkpoint {@code checkpointId} completed everywhere: output logs may drop what its barriers cover. Any
     * thread.
     */
    public void checkpointCompleted(long checkpointId) {
        mailbox.putMail(() -> output.checkpointCompleted(checkpointId));
    }

    /**
     * Starts checkpoint {@code checkpointId} at this source task: between two polls it snapshots the source
     * position and sends the barrier on every output. Any thread; ignored with a warning by non-sources.
     */
    public void triggerCheckpoint(long checkpointId) {
        mailbox.putMail(() -> {
            if (!(driver instanceof SourceDriver)) {
                LOG.warn("Task {} is not a source and ignores the trigger of checkpoint {}", id, checkpointId);
                return;
            }
            completeCheckpoint(checkpointId);
        });
    }

    /** As {@link #triggerCheckpoint}, but silently does nothing at a task that is not a source. */
    public void triggerCheckpointIfSource(long checkpointId) {
        if (driver instanceof SourceDriver) {
            triggerCheckpoint(checkpointId);
        }
    }

    public void start() {
        thread.start();
    }

    /** Hands an input frame to the task; any thread. */
    public void deliver(InputFrame frame) {
        mailbox.putFrame(frame);
    }

    /** Runs {@code action} on the task thread, between two frames; any thread. */
    public <T> CompletableFuture<T> call(Function<OperatorDriver, T> action) {
        CompletableFuture<T> result = new CompletableFuture<>();
        mailbox.putMail(() -> {
            try {
                result.complete(action.apply(driver));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        if (status.isTerminal()) {
            result.completeExceptionally(new IllegalStateException("task " + id + " is " + status));
        }
        return result;
    }

    /** Stops the task and waits for its thread to end; any thread but the task's own. */
    public void cancel(Duration timeout) {
        mailbox.putMail(() -> stopRequested = true);
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("Task {} did not stop within {}", id, timeout);
        }
    }

    private void run() {
        moveTo(TaskStatus.RUNNING);
        try {
            while (!stopRequested) {
                runMails();
                if (stopRequested) {
                    break;
                }
                long now = System.nanoTime();
                output.tick(now);
                boolean progressed = (status == TaskStatus.RUNNING || status == TaskStatus.FINISHED) && step(now);
                output.publishMetrics();
                long untilFlush = output.flushDue(System.nanoTime());
                if (!progressed) {
                    mailbox.park(Math.min(untilFlush, parkNanos()));
                }
            }
            moveTo(TaskStatus.CANCELLED);
        } catch (RuntimeException | Error e) {
            failure = describe(e);
            LOG.error("Task {} failed", id, e);
            moveTo(TaskStatus.FAILED);
        }
    }

    private long parkNanos() {
        return driver instanceof SourceDriver && status == TaskStatus.RUNNING ? PACED_SOURCE_PARK_NANOS : IDLE_PARK_NANOS;
    }

    private void runMails() {
        Runnable mail;
        while ((mail = mailbox.pollMail()) != null) {
            mail.run();
        }
    }

    /** One unit of work; returns whether anything was done. */
    private boolean step(long now) {
        if (!output.hasCredit()) {
            long start = System.nanoTime();
            mailbox.park(TimeUnit.MILLISECONDS.toNanos(1));
            metrics.addBackpressuredNanos(System.nanoTime() - start);
            return false;
        }
        if (driver instanceof SourceDriver source) {
            return !source.isExhausted() && pollSource(source, now);
        }
        BarrierAligner.HeldInput held = ready.poll();
        if (held != null) {
            if (aligner.isBlocked(held.frame.channel())) {
                aligner.hold(held.frame.channel(), held);
            } else {
                runInput(held);
            }
            return true;
        }
        InputFrame frame = mailbox.pollFrame();
        if (frame == null) {
            return false;
        }
        metrics.addFrameIn();
        BarrierAligner.HeldInput input = new BarrierAligner.HeldInput(frame);
        if (aligner.isBlocked(frame.channel())) {
            aligner.hold(frame.channel(), input);
        } else {
            runInput(input);
        }
        return true;
    }

    private boolean pollSource(SourceDriver source, long now) {
        int emitted = source.poll(output, settings.sourceBatch());
        if (emitted == Source.EXHAUSTED) {
            output.advanceWatermark(Long.MAX_VALUE);
            output.flushAll(now);
            moveTo(TaskStatus.FINISHED);
            LOG.info("Source task {} is exhausted at position {}", id, source.position());
            return false;
        }
        if (emitted > 0) {
            metrics.addRecordsIn(emitted);
            output.advanceWatermark(source.watermark());
        }
        return emitted > 0;
    }

    /**
     * Processes a frame's records from where it stopped; stops after a barrier that blocks the channel and
     * holds the rest. The frame is acknowledged (credit returned) only once all of it is processed.
     */
    private void runInput(BarrierAligner.HeldInput input) {
        InputFrame frame = input.frame;
        if (input.records == null) {
            try {
                input.records = reader.decode(frame.payload(), frame.records(), frame.skip());
            } catch (CodecException e) {
                metrics.addMalformedFrame();
                LOG.warn("Task {} dropped a malformed frame from channel {}: {}", id, frame.channel(), e.getMessage());
                frame.consumed();
                return;
            }
        }
        Object[] records = input.records;
        ChannelId channel = frame.channel();
        long[] seq = inputSeqs.get(channel);
        long events = 0;
        KeyedProcessorDriver keyed = (KeyedProcessorDriver) driver;
        for (int i = input.next; i < records.length; i++) {
            Object record = records[i];
            if (input.toSkip > 0 && !(record instanceof Watermark)) {
                input.toSkip--;
                continue;
            }
            if (record instanceof Event<?> event) {
                seq[0]++;
                events++;
                @SuppressWarnings("unchecked")
                Event<Object> typed = (Event<Object>) event;
                keyed.process(typed, output);
            } else if (record instanceof Watermark watermark) {
                onInputWatermark(channel, watermark.timestamp());
            } else if (record instanceof Barrier barrier) {
                seq[0]++;
                if (aligner.onBarrier(channel, barrier.checkpointId())) {
                    completeCheckpoint(barrier.checkpointId());
                } else {
                    input.next = i + 1;
                    aligner.holdFirst(channel, input);
                    metrics.addRecordsIn(events);
                    return;
                }
            }
        }
        metrics.addRecordsIn(events);
        frame.consumed();
    }

    /**
     * Detaches the operator's state, forwards the barrier and releases held input on the task thread; the
     * snapshot is encoded and reported on the snapshot writer, while processing goes on.
     */
    private void completeCheckpoint(long checkpointId) {
        long start = System.nanoTime();
        Map<Integer, Long> inputPositions = new HashMap<>();
        inputSeqs.forEach((channel, seq) -> inputPositions.put(channel.index(), seq[0]));
        Map<Integer, Long> outputPositions = output.broadcastBarrier(checkpointId, System.nanoTime());
        OperatorSnapshot.Prepared prepared = OperatorSnapshot.prepare(operatorType, driver,
                new ChannelPositions(inputPositions, outputPositions));
        long syncNanos = System.nanoTime() - start;
        ready.addAll(aligner.release());
        snapshotWriter.execute(() -> {
            try {
                checkpointListener.onSnapshot(id, checkpointId, prepared.write(), syncNanos);
            } catch (RuntimeException e) {
                LOG.error("Task {} could not write its snapshot of checkpoint {}", id, checkpointId, e);
            }
        });
    }

    private void onInputWatermark(ChannelId channel, long watermark) {
        long[] slot = inputWatermarks.get(channel);
        if (slot == null || watermark <= slot[0]) {
            return;
        }
        slot[0] = watermark;
        if (watermark == Long.MAX_VALUE && aligner.onEnded(channel)) {
            completeCheckpoint(aligner.aligningCheckpoint());
        }
        long min = Long.MAX_VALUE;
        for (long[] other : inputWatermarks.values()) {
            min = Math.min(min, other[0]);
        }
        if (driver instanceof KeyedProcessorDriver keyed && min > keyed.watermark()) {
            keyed.advanceWatermark(min, output);
            output.advanceWatermark(min);
            if (min == Long.MAX_VALUE) {
                output.flushAll(System.nanoTime());
                moveTo(TaskStatus.FINISHED);
                LOG.info("Task {} finished: every input ended", id);
            }
        }
    }

    private void moveTo(TaskStatus target) {
        TaskStatus current = status;
        if (current == target) {
            return;
        }
        if (!current.canMoveTo(target)) {
            throw new IllegalStateException("task " + id + " cannot move from " + current + " to " + target);
        }
        status = target;
    }

    private static String describe(Throwable e) {
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    @Override
    public String toString() {
        return "task " + id + " (" + status + ")";
    }
}
