package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.source.Source;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.RecordVisitor;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
    private final InputVisitor visitor = new InputVisitor();
    private final Thread thread;
    private volatile TaskStatus status = TaskStatus.CREATED;
    private volatile String failure;
    private boolean stopRequested;

    StreamTask(TaskId id, String operatorType, OperatorDriver driver, TaskOutput output, List<ChannelId> inputs, RecordBatchReader reader,
               TaskSettings settings, TaskMetrics metrics) {
        this.id = id;
        this.operatorType = operatorType;
        this.driver = driver;
        this.output = output;
        this.reader = reader;
        this.settings = settings;
        this.metrics = metrics;
        for (ChannelId input : inputs) {
            inputWatermarks.put(input, new long[] {Long.MIN_VALUE});
        }
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
                boolean progressed = status == TaskStatus.RUNNING && step(now);
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
            return pollSource(source, now);
        }
        InputFrame frame = mailbox.pollFrame();
        if (frame == null) {
            return false;
        }
        process(frame);
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

    private void process(InputFrame frame) {
        metrics.addFrameIn();
        try {
            visitor.channel = frame.channel();
            visitor.events = 0;
            reader.read(frame.payload(), frame.records(), frame.skip(), visitor);
            metrics.addRecordsIn(visitor.events);
        } catch (CodecException e) {
            metrics.addMalformedFrame();
            LOG.warn("Task {} dropped a malformed frame from channel {}: {}", id, frame.channel(), e.getMessage());
        } finally {
            frame.consumed();
        }
    }

    private void onInputWatermark(ChannelId channel, long watermark) {
        long[] slot = inputWatermarks.get(channel);
        if (slot == null || watermark <= slot[0]) {
            return;
        }
        slot[0] = watermark;
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

    private final class InputVisitor implements RecordVisitor {

        private ChannelId channel;
        private long events;

        @Override
        public void onEvent(Event<Object> event) {
            events++;
            ((KeyedProcessorDriver) driver).process(event, output);
        }

        @Override
        public void onWatermark(long watermark) {
            onInputWatermark(channel, watermark);
        }
    }

    @Override
    public String toString() {
        return "task " + id + " (" + status + ")";
    }
}
