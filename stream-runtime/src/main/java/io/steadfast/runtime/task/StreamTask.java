package io.steadfast.runtime.task;

import io.steadfast.api.source.Source;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.CatchUpWatch;
import io.steadfast.runtime.recovery.DecisionRecorder;
import io.steadfast.runtime.recovery.DecisionReplay;
import io.steadfast.runtime.recovery.InPlaceStart;
import io.steadfast.runtime.recovery.RecoveryCatchUp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
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
    private final TaskSettings settings;
    private final TaskMailbox mailbox = new TaskMailbox();
    private final TaskMetrics metrics;
    private final TaskCheckpoints checkpoints;
    private final Thread thread;
    private final DecisionRecorder decisions;
    private final TaskInputs input;
    /** A source's output: each event counts in its log before it can reach a frame. */
    private final EventOutput sourceOutput;
    /** A restore in place the task's thread runs first ({@link #recoverInPlaceOnStart}); task thread after start. */
    private Runnable restoreOnStart;
    /** Set by {@link #cancel} from any thread: ends a restore in place still waiting for its logged decisions. */
    private volatile boolean cancelRequested;
    private final DecisionReplay<BarrierAligner.HeldInput> replay;
    /** While not null, a task recovered in place: watched until it has caught up. */
    private volatile CatchUpWatch catchUp;
    private volatile TaskStatus status = TaskStatus.CREATED;
    private volatile String failure;
    /** When this task's loop last turned (System.nanoTime), for the watchdog: it turns at least every idle park. */
    private volatile long lastTurnNanos = System.nanoTime();
    private boolean stopRequested;

    StreamTask(TaskId id, String operatorType, OperatorDriver driver, TaskSettings settings, TaskWiring wiring) {
        this.id = id;
        this.operatorType = operatorType;
        this.driver = driver;
        this.settings = settings;
        this.metrics = wiring.metrics();
        this.output = wiring.output();
        this.decisions = new DecisionRecorder(wiring.log());
        this.sourceOutput = event -> {
            decisions.took(0);
            output.emit(event);
        };
        this.input = new TaskInputs(id, driver, wiring, mailbox, decisions, new TaskInputs.Events() {
            @Override
            public void aligned(long checkpointId) {
                checkpoints.complete(checkpointId);
            }

            @Override
            public void ended() {
                moveTo(TaskStatus.FINISHED);
                LOG.info("Task {} finished: every input ended", id);
            }
        });
        this.checkpoints = new TaskCheckpoints(id, operatorType, driver, wiring, input);
        this.replay = new DecisionReplay<>(new ReplaySteps(id, driver, input, checkpoints, decisions,
                maxEvents -> pollSource((SourceDriver) driver, System.nanoTime(),
                        Math.min(settings.sourceBatch(), maxEvents))), decisions, wiring.inputs());
        checkpoints.replayedBy(replay);
        this.thread = new Thread(this::run, "steadfast-task-" + id);
        this.thread.setDaemon(true);
        mailbox.bindOwner(thread);
        output.onCreditAvailable(mailbox::wakeUp);
        output.beforeSend(decisions::flush);
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

    /**
     * How long, at {@code nowNanos}, this task's thread has not come back to its loop while RUNNING: a task whose
     * thread hangs in operator code (an endless loop, a deadlock, a blocking call) heartbeats on with its host, yet
     * takes in nothing; 0 for a task not RUNNING.
     */
    public long stalledNanos(long nowNanos) {
        return status == TaskStatus.RUNNING ? Math.max(0, nowNanos - lastTurnNanos) : 0;
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
     * Replaces the operator's state with a snapshot and resumes the channels where they stood at its barrier (a local
     * recovery): input is counted on from the barrier, output numbered from one after it, so that receivers drop the
     * regenerated records they already have. Then replays the logged decisions (see {@link DecisionReplay}) before
     * running freely, its log going on after them, and is watched until it has caught up ({@link #caughtUp()}). Only
     * before {@link #start()}.
     *
     * <p>The state is restored and the decisions parsed on the task's own thread when it starts, before it takes any
     * input or mail, so the tasks a host recovers at once restore in parallel; input arriving meanwhile waits in its
     * mailbox. What is checked here fails here; a snapshot that cannot be restored, or decisions that could not be
     * collected, fail the task.
     *
     * @throws IllegalArgumentException if the snapshot lacks the position of one of the task's input channels
     */
    public void recoverInPlaceOnStart(InPlaceStart start) {
        requireNotStarted();
        input.requirePositionsIn(start.snapshot().positions());
        // an empty mail wakes the task, parked or about to park, to go on replaying
        start.rest().whenComplete((decisions, error) -> mailbox.putMail(() -> { }));
        catchUp = new CatchUpWatch(start.requestedAtNanos(), start.liveInputs(), metrics);
        restoreOnStart = () -> applyInPlace(start);
    }

    private void applyInPlace(InPlaceStart start) {
        checkpoints.resumeAfter(start.checkpointId());
        ChannelPositions positions = start.snapshot().positions();
        input.resumeAt(positions);
        output.resumeAt(positions);
        LOG.info("Task {} resumes at checkpoint {}: input positions {}, output positions {}, decisions from offset {}",
                id, start.checkpointId(), new TreeMap<>(positions.inputs()), new TreeMap<>(positions.outputs()),
                positions.decisionOffset());
        if (!start.stateRestored()) {
            start.snapshot().restoreInto(operatorType, driver);
        }
        replay.begin(start.known(), start.rest(), positions.decisionOffset(), () -> cancelRequested);
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
        mailbox.putMail(() -> {
            output.checkpointCompleted(checkpointId);
            decisions.checkpointCompleted(checkpointId);
        });
    }

    /**
     * Starts checkpoint {@code checkpointId} at this source task: between two polls it snapshots the source
     * position and sends the barrier on every output, unless it already sent that or a newer one (a recovered
     * source told of the latest triggered checkpoint). Any thread; ignored with a warning by non-sources.
     */
    public void triggerCheckpoint(long checkpointId) {
        mailbox.putMail(() -> {
            if (!(driver instanceof SourceDriver)) {
                LOG.warn("Task {} is not a source and ignores the trigger of checkpoint {}", id, checkpointId);
                return;
            }
            if (replay.isActive()) {
                replay.deferTrigger(checkpointId); // its barrier must follow the logged ones
                return;
            }
            checkpoints.sendSourceBarrier(checkpointId, decisions);
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
        cancelRequested = true;
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
            if (restoreOnStart != null) {
                restoreOnStart.run();
                restoreOnStart = null;
            }
            while (!stopRequested) {
                lastTurnNanos = System.nanoTime();
                runMails();
                if (stopRequested) {
                    break;
                }
                long now = System.nanoTime();
                output.tick(now);
                boolean progressed = (status == TaskStatus.RUNNING || status == TaskStatus.FINISHED) && step(now);
                long turnEnd = System.nanoTime();
                output.publishMetrics(turnEnd);
                long untilFlush = output.flushDue(turnEnd);
                boolean recovering = replay.isActive() || catchUp != null && !catchUp.caughtUp();
                if (!progressed && catchUp != null && !catchUp.caughtUp() && !replay.isActive() && output.hasCredit()) {
                    watchCatchUp();
                }
                if (!progressed) {
                    if (recovering) {
                        // recovered and catching up: tasks downstream, recovered too, wait for what it regenerated,
                        // so it goes out now rather than at the end of the linger
                        output.flushAll(System.nanoTime());
                        untilFlush = output.flushDue(System.nanoTime());
                    }
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

    private void watchCatchUp() {
        catchUp.idle(System.nanoTime(), input.seqs(), metrics);
        if (catchUp.caughtUp()) {
            RecoveryCatchUp caughtUp = catchUp.result();
            LOG.info("Task {} caught up {} ms after its recovery was asked for ({} records, {} bytes taken in)", id,
                    caughtUp.millis(), caughtUp.records(), caughtUp.bytes());
        }
    }

    /** The live upstream tasks of some input channels had sent up to these heads when redirected here; any thread. */
    public void catchUpTargets(Map<ChannelId, Long> heads) {
        mailbox.putMail(() -> {
            if (catchUp != null) {
                heads.forEach(catchUp::target);
            }
        });
    }

    /** How this task, recovered in place, caught up; null while it has not (or was not recovered in place). */
    public RecoveryCatchUp caughtUp() {
        CatchUpWatch watch = catchUp;
        return watch == null ? null : watch.result();
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
            mailbox.parkForCredit(TimeUnit.MILLISECONDS.toNanos(1));
            metrics.addBackpressuredNanos(System.nanoTime() - start);
            return false;
        }
        if (driver instanceof SourceDriver source) {
            if (replay.isActive()) {
                return replay.stepSource();
            }
            return !source.isExhausted() && pollSource(source, now, settings.sourceBatch()) > 0;
        }
        if (replay.isActive()) {
            return replay.stepInput();
        }
        boolean fired = readProcessingTimeIfDue();
        return input.step() || fired;
    }

    /**
     * Reads the wall clock into a keyed task's processing-time clock when a timer is due or a PE needs a fresh
     * reading, logging the reading so that a replay applies it at the same place. Returns whether it did.
     * <p>
     * The reading is never later than the arrival of the input the task takes next: a timer fires after the input
     * that reached the host before it was due, however far behind the task is. A vote's deadline thus counts from
     * when ballots reached the voter, and a ballot waiting in the vote task's queue (or held by a barrier
     * alignment) when the deadline passes is not late.
     */
    private boolean readProcessingTimeIfDue() {
        KeyedProcessorDriver keyed = (KeyedProcessorDriver) driver;
        long reading = Math.min(System.currentTimeMillis(), input.nextArrivalMillis());
        if (!keyed.processingTimeDue(reading)) {
            return false;
        }
        decisions.processingTime(reading);
        keyed.advanceProcessingTime(reading, input.operatorOutput());
        return true;
    }

    /** @return the events emitted, or {@link Source#EXHAUSTED} */
    private int pollSource(SourceDriver source, long now, int maxEvents) {
        long startNanos = System.nanoTime();
        int emitted = source.poll(sourceOutput, maxEvents);
        metrics.addProcessing(Math.max(0, emitted), 0, System.nanoTime() - startNanos);
        if (emitted > 0) {
            metrics.addPoll(); // a source's input frame: its records come together, as a frame's do
        }
        if (emitted == Source.EXHAUSTED) {
            output.advanceWatermark(Long.MAX_VALUE);
            output.flushAll(now);
            moveTo(TaskStatus.FINISHED);
            LOG.info("Source task {} is exhausted at position {}", id, source.position());
            return Source.EXHAUSTED;
        }
        if (emitted > 0) {
            metrics.addRecordsIn(emitted);
            output.advanceWatermark(source.watermark());
        }
        return emitted;
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
