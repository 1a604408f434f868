package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.source.Source;
import io.steadfast.runtime.codec.Barrier;
import io.steadfast.runtime.codec.DeterminantRecord;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.Watermark;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    /** How often a task waiting for its logged decisions looks whether it was cancelled. */
    private static final Duration DECISIONS_WAIT_SLICE = Duration.ofMillis(50);

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
    private final CheckpointListener.OfTask checkpointListener;
    private final Executor snapshotWriter;
    private final Thread thread;
    private final Map<ChannelId, Integer> inputIndex = new HashMap<>();
    private final List<ChannelId> inputs;
    private final DecisionRecorder decisions;
    /** A source's output: each event counts in its log before it can reach a frame. */
    private final EventOutput sourceOutput;
    /** A restore in place the task's thread runs first ({@link #restoreInPlaceOnStart}); task thread after start. */
    private Runnable restoreOnStart;
    /** Set by {@link #cancel} from any thread: ends a restore in place still waiting for its logged decisions. */
    private volatile boolean cancelRequested;
    /** While not null, the task replays logged decisions before it runs freely. */
    private InputReplay replay;
    /**
     * While not null, the logged decisions that follow those being replayed (which were known ahead), still being
     * confirmed: the replay goes on with them, if any, once they are in.
     */
    private CompletableFuture<byte[]> restOfDecisions;
    /** Checkpoints a recovered source was asked for while it still replayed its logged barriers. */
    private final List<Long> deferredTriggers = new ArrayList<>();
    private long lastBarrier;
    /** While not null, a task recovered in place that has not caught up yet. */
    private CatchUpWatch catchUp;
    private volatile RecoveryCatchUp caughtUp;
    private volatile TaskStatus status = TaskStatus.CREATED;
    private volatile String failure;
    /** When this task's loop last turned (System.nanoTime), for the watchdog: it turns at least every idle park. */
    private volatile long lastTurnNanos = System.nanoTime();
    private boolean stopRequested;

    StreamTask(TaskId id, String operatorType, OperatorDriver driver, TaskOutput output, List<ChannelId> inputs,
               RecordBatchReader reader, TaskSettings settings, TaskMetrics metrics,
               CheckpointListener.OfTask checkpointListener, Executor snapshotWriter, DeterminantLog log) {
        this.id = id;
        this.inputs = List.copyOf(inputs);
        for (int i = 0; i < inputs.size(); i++) {
            inputIndex.put(inputs.get(i), i);
        }
        this.decisions = new DecisionRecorder(log);
        this.sourceOutput = event -> {
            decisions.took(0);
            output.emit(event);
        };
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

    /** The failure's class, message and stack text, or null. */
    /**
     * How long, at {@code nowNanos}, this task's thread has not come back to its loop while RUNNING: a task whose
     * thread hangs in operator code (an endless loop, a deadlock, a blocking call) heartbeats on with its host, yet
     * takes in nothing; 0 for a task not RUNNING.
     */
    public long stalledNanos(long nowNanos) {
        return status == TaskStatus.RUNNING ? Math.max(0, nowNanos - lastTurnNanos) : 0;
    }

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
     * receivers drop the regenerated records they already have. Then replays {@code determinants} (encoded, as
     * logged from the snapshot's barrier on and collected from the task's receivers) before running freely: the task
     * takes its input in the logged order, applies the logged watermarks, and a source sends its barriers at the
     * logged positions, so it regenerates exactly the output its receivers have seen. The task's log goes on after
     * them. Only before {@link #start()}.
     *
     * <p>The state is restored and the determinants parsed on the task's own thread when it starts, before it takes
     * any input or mail, so the tasks a host recovers at once restore in parallel. The determinants may still be
     * being collected from the receivers: the task restores its state meanwhile and waits for them before it takes
     * input (input arriving meanwhile waits in its mailbox). What is checked here fails here; a snapshot that cannot
     * be restored, or determinants that could not be collected, fail the task.
     *
     * @param checkpointId the checkpoint the snapshot belongs to; a source sends the barriers after it
     * @param determinants completes with the task's logged decisions (empty if nobody saw any)
     * @throws IllegalArgumentException if the snapshot lacks the position of one of the task's input channels
     */
    public void restoreInPlaceOnStart(OperatorSnapshot snapshot, long checkpointId,
                                      CompletableFuture<byte[]> determinants) {
        restoreInPlaceOnStart(snapshot, checkpointId, new byte[0], determinants);
    }

    /**
     * As {@link #restoreInPlaceOnStart(OperatorSnapshot, long, CompletableFuture)}, with the first of the logged
     * decisions known already ({@code known}: fetched from the receivers while the failure was being confirmed). The
     * task replays those as soon as its state is restored, without waiting for the rest; at their end it waits for
     * {@code rest}, the decisions logged after them (empty if the receivers hold no more), and replays those too
     * before it runs freely. Every run of a task's decisions that a receiver holds from the snapshot's offset is a
     * prefix of the task's log, so replaying it early changes nothing of what the task regenerates.
     *
     * @param known encoded decisions from the snapshot's log offset on, known already (may be empty)
     * @param rest  completes with the encoded decisions that follow {@code known} in the log
     */
    public void restoreInPlaceOnStart(OperatorSnapshot snapshot, long checkpointId, byte[] known,
                                      CompletableFuture<byte[]> rest) {
        restoreInPlaceOnStart(snapshot, checkpointId, known, rest, false);
    }

    /**
     * As {@link #restoreInPlaceOnStart(OperatorSnapshot, long, byte[], CompletableFuture)}; with
     * {@code stateRestored}, the task's driver holds the snapshot's state already (restored into it ahead, while the
     * failure was being confirmed), and only the channels' positions and the decisions are taken from it.
     */
    public void restoreInPlaceOnStart(OperatorSnapshot snapshot, long checkpointId, byte[] known,
                                      CompletableFuture<byte[]> rest, boolean stateRestored) {
        requireNotStarted();
        requireInputPositions(snapshot);
        // an empty mail wakes the task, parked or about to park, to go on replaying
        rest.whenComplete((decisions, error) -> mailbox.putMail(() -> { }));
        restoreOnStart = () -> applyInPlace(snapshot, checkpointId, known, rest, stateRestored);
    }

    private void requireInputPositions(OperatorSnapshot snapshot) {
        for (ChannelId input : inputSeqs.keySet()) {
            if (!snapshot.positions().inputs().containsKey(input.index())) {
                throw new IllegalArgumentException("the snapshot of task " + id + " has no position for input channel "
                        + input);
            }
        }
    }

    private void applyInPlace(OperatorSnapshot snapshot, long checkpointId, byte[] known,
                              CompletableFuture<byte[]> rest, boolean stateRestored) {
        lastBarrier = checkpointId;
        ChannelPositions positions = snapshot.positions();
        for (Map.Entry<ChannelId, long[]> input : inputSeqs.entrySet()) {
            input.getValue()[0] = positions.inputs().get(input.getKey().index());
        }
        output.resumeAt(positions);
        LOG.info("Task {} resumes at checkpoint {}: input positions {}, output positions {}, decisions from offset {}",
                id, checkpointId, new TreeMap<>(positions.inputs()), new TreeMap<>(positions.outputs()),
                positions.determinantOffset());
        if (!stateRestored) {
            snapshot.restoreInto(operatorType, driver);
        }
        Determinant.Parsed knownAhead = Determinant.parse(known);
        if (!knownAhead.determinants().isEmpty()) {
            replay = new InputReplay(knownAhead, positions.determinantOffset(), inputs);
            restOfDecisions = rest;
            decisions.setReplaying(true);
            LOG.info("Task {} replays {} logged decisions known ahead, then those confirmed after them", id,
                    knownAhead.determinants().size());
            return;
        }
        Optional<byte[]> logged = awaitDecisions(rest);
        if (logged.isEmpty()) {
            return; // cancelled meanwhile: the stop mail ends the task
        }
        Determinant.Parsed replayed = Determinant.parse(logged.get());
        if (!replayed.determinants().isEmpty()) {
            replay = new InputReplay(replayed, positions.determinantOffset(), inputs);
            decisions.setReplaying(true);
            LOG.info("Task {} replays {} logged decisions", id, replayed.determinants().size());
        }
    }

    /**
     * At the end of the decisions replayed so far: goes on with those confirmed after them once they are in, or ends
     * the replay if there are none (more). Returns whether anything was done; the mailbox wakes when they come in.
     */
    private boolean endOfReplayedDecisions() {
        if (restOfDecisions == null) {
            finishReplay();
            return true;
        }
        if (!restOfDecisions.isDone()) {
            return false;
        }
        byte[] rest;
        try {
            rest = restOfDecisions.join();
        } catch (CompletionException | CancellationException e) {
            throw new IllegalStateException("the logged decisions of task " + id + " after those known ahead could"
                    + " not be collected: " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
        restOfDecisions = null;
        Determinant.Parsed more = Determinant.parse(rest);
        if (more.determinants().isEmpty()) {
            finishReplay();
        } else {
            replay.extend(more);
            LOG.info("Task {} replays {} more logged decisions, confirmed after those known ahead", id,
                    more.determinants().size());
        }
        return true;
    }

    /**
     * The task's logged decisions, waited for after its state is restored (its host may still be collecting them);
     * empty if the task is cancelled meanwhile.
     *
     * @throws IllegalStateException if they could not be collected: the task fails
     */
    private Optional<byte[]> awaitDecisions(CompletableFuture<byte[]> determinants) {
        while (!cancelRequested) {
            try {
                return Optional.of(determinants.get(DECISIONS_WAIT_SLICE.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                // still being collected
            } catch (ExecutionException e) {
                throw new IllegalStateException("the logged decisions of task " + id + " could not be collected: "
                        + e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("task " + id + " was interrupted waiting for its logged decisions", e);
            }
        }
        return Optional.empty();
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
            if (replay != null) {
                deferredTriggers.add(checkpointId); // its barrier must follow the logged ones
                return;
            }
            sendBarrier(checkpointId);
        });
    }

    private void sendBarrier(long checkpointId) {
        if (checkpointId > lastBarrier) {
            decisions.sourceBarrier(checkpointId, ((SourceDriver) driver).position());
            completeCheckpoint(checkpointId);
        }
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
                output.publishMetrics();
                long untilFlush = output.flushDue(System.nanoTime());
                boolean recovering = replay != null || catchUp != null;
                if (!progressed && catchUp != null && replay == null && output.hasCredit()) {
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
        catchUp.idle(System.nanoTime(), inputSeqs, metrics);
        if (catchUp.caughtUp()) {
            caughtUp = catchUp.result();
            LOG.info("Task {} caught up {} ms after its recovery was asked for ({} records, {} bytes taken in)", id,
                    caughtUp.millis(), caughtUp.records(), caughtUp.bytes());
            catchUp = null;
        }
    }

    /**
     * Watches this task, about to be recovered in place, until it has caught up (see {@link #caughtUp()}). Only
     * before {@link #start()}.
     *
     * @param requestedAtNanos when its host was asked to recover it ({@link System#nanoTime()})
     * @param liveInputs       its input channels whose upstream task kept running: it has caught up only once it
     *                         has taken in what they had sent when redirected to it ({@link #catchUpTargets})
     */
    public void watchCatchUp(long requestedAtNanos, Set<ChannelId> liveInputs) {
        requireNotStarted();
        catchUp = new CatchUpWatch(requestedAtNanos, liveInputs, metrics);
    }

    /** The live upstream tasks of some input channels had sent up to these heads when redirected here; any thread. */
    public void catchUpTargets(Map<ChannelId, Long> heads) {
        mailbox.putMail(() -> {
            if (catchUp != null) {
                heads.forEach((channel, head) -> {
                    if (inputSeqs.containsKey(channel)) {
                        catchUp.target(channel, head);
                    }
                });
            }
        });
    }

    /** How this task, recovered in place, caught up; null while it has not (or was not recovered in place). */
    public RecoveryCatchUp caughtUp() {
        return caughtUp;
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
            if (replay != null) {
                return replaySource(source, now);
            }
            return !source.isExhausted() && pollSource(source, now, settings.sourceBatch()) > 0;
        }
        if (replay != null) {
            return replayInput();
        }
        BarrierAligner.HeldInput held = ready.poll();
        if (held != null) {
            if (aligner.isBlocked(held.frame.channel())) {
                aligner.hold(held.frame.channel(), held);
            } else {
                runInput(held, Integer.MAX_VALUE);
            }
            return true;
        }
        InputFrame frame = mailbox.pollFrame();
        if (frame == null) {
            return false;
        }
        metrics.addFrameIn(frame.payload().length);
        BarrierAligner.HeldInput input = new BarrierAligner.HeldInput(frame);
        if (aligner.isBlocked(frame.channel())) {
            aligner.hold(frame.channel(), input);
        } else {
            runInput(input, Integer.MAX_VALUE);
        }
        return true;
    }

    /**
     * Emits up to the position of the next logged barrier and sends it there; once every logged barrier is
     * sent, the source runs freely, starting with the checkpoints it was asked for meanwhile.
     */
    private boolean replaySource(SourceDriver source, long now) {
        if (replay.isDone()) {
            return endOfReplayedDecisions();
        }
        if (replay.next() instanceof Determinant.Run) {
            int emitted = pollSource(source, now, Math.min(settings.sourceBatch(), replay.remainingOfRun()));
            if (emitted == Source.EXHAUSTED) {
                throw new IllegalStateException("source task " + id + " ended at " + source.position()
                        + " while replaying events it emitted before");
            }
            replay.took(emitted);
            return emitted > 0;
        }
        Determinant.SourceBarrier barrier = (Determinant.SourceBarrier) replay.next();
        if (barrier.position() != source.position()) {
            throw new IllegalStateException("source task " + id + " is at " + source.position()
                    + " where it sent barrier " + barrier.checkpointId() + " at " + barrier.position());
        }
        completeCheckpoint(barrier.checkpointId());
        replay.advance();
        return true;
    }

    /** Takes input in the logged order: records from the channel each run names, watermarks as logged. */
    private boolean replayInput() {
        InputFrame arrived;
        while ((arrived = mailbox.pollFrame()) != null) {
            metrics.addFrameIn(arrived.payload().length);
            replay.queue(new BarrierAligner.HeldInput(arrived));
        }
        if (replay.isDone()) {
            return endOfReplayedDecisions();
        }
        Determinant next = replay.next();
        if (next instanceof Determinant.AppliedWatermark watermark) {
            applyInputWatermark(inputs.get(watermark.input()), watermark.value());
            replay.advance();
            return true;
        }
        if (next instanceof Determinant.Run run) {
            Deque<BarrierAligner.HeldInput> queue = replay.queueOf(inputs.get(run.input()));
            BarrierAligner.HeldInput head = queue.peekFirst();
            if (head == null) {
                return false; // the logged input has not arrived yet
            }
            int taken = runInput(head, replay.remainingOfRun());
            if (head.isDone()) {
                queue.pollFirst();
            }
            replay.took(taken);
            return true;
        }
        throw new IllegalStateException("task " + id + " cannot replay " + next);
    }

    private void finishReplay() {
        ready.addAll(replay.drain());
        replay = null;
        decisions.setReplaying(false);
        LOG.info("Task {} replayed its logged decisions and runs freely", id);
        deferredTriggers.stream().max(Long::compare).ifPresent(this::sendBarrier);
        deferredTriggers.clear();
    }

    /** @return the events emitted, or {@link Source#EXHAUSTED} */
    private int pollSource(SourceDriver source, long now, int maxEvents) {
        int emitted = source.poll(sourceOutput, maxEvents);
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
    private int runInput(BarrierAligner.HeldInput input, int budget) {
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
        Object[] records = input.records;
        ChannelId channel = frame.channel();
        int index = inputIndex.get(channel);
        long[] seq = inputSeqs.get(channel);
        boolean replaying = replay != null;
        int taken = 0;
        long events = 0;
        KeyedProcessorDriver keyed = (KeyedProcessorDriver) driver;
        for (int i = input.next; i < records.length; i++) {
            Object record = records[i];
            if (record instanceof DeterminantRecord) {
                continue; // stored by the host as the frame arrived
            }
            if (record instanceof Watermark watermark) {
                if (!replaying) {
                    applyInputWatermark(channel, watermark.timestamp());
                }
                continue;
            }
            if (input.toSkip > 0) {
                input.toSkip--;
                continue;
            }
            if (taken == budget) {
                input.next = i;
                metrics.addRecordsIn(events);
                return taken;
            }
            seq[0]++;
            taken++;
            decisions.took(index);
            if (record instanceof Event<?> event) {
                events++;
                @SuppressWarnings("unchecked")
                Event<Object> typed = (Event<Object>) event;
                keyed.process(typed, output);
            } else if (record instanceof Barrier barrier) {
                BarrierAligner.Outcome outcome = aligner.onBarrier(channel, barrier.checkpointId());
                ready.addAll(aligner.takeAbandoned());
                if (outcome == BarrierAligner.Outcome.ALIGNED) {
                    completeCheckpoint(barrier.checkpointId());
                } else if (outcome == BarrierAligner.Outcome.WAITING && !replaying) {
                    input.next = i + 1;
                    aligner.holdFirst(channel, input);
                    metrics.addRecordsIn(events);
                    return taken;
                }
            }
        }
        input.next = records.length;
        metrics.addRecordsIn(events);
        frame.consumed();
        return taken;
    }

    /**
     * Detaches the operator's state, forwards the barrier and releases held input on the task thread; the
     * snapshot is encoded and reported on the snapshot writer, while processing goes on.
     */
    private void completeCheckpoint(long checkpointId) {
        long start = System.nanoTime();
        lastBarrier = Math.max(lastBarrier, checkpointId);
        long logOffset = decisions.markCheckpoint(checkpointId, replay == null ? 0 : replay.offsetAfterCurrent());
        Map<Integer, Long> inputPositions = new HashMap<>();
        inputSeqs.forEach((channel, seq) -> inputPositions.put(channel.index(), seq[0]));
        Map<Integer, Long> outputPositions = output.broadcastBarrier(checkpointId, System.nanoTime());
        OperatorSnapshot.Prepared prepared = OperatorSnapshot.prepare(operatorType, driver,
                new ChannelPositions(inputPositions, outputPositions, logOffset));
        long syncNanos = System.nanoTime() - start;
        ready.addAll(aligner.release());
        snapshotWriter.execute(() -> {
            try {
                checkpointListener.onSnapshot(checkpointId, prepared.write(), syncNanos);
            } catch (RuntimeException e) {
                LOG.error("Task {} could not write its snapshot of checkpoint {}", id, checkpointId, e);
            }
        });
    }

    private void applyInputWatermark(ChannelId channel, long watermark) {
        long[] slot = inputWatermarks.get(channel);
        if (slot == null || watermark <= slot[0]) {
            return;
        }
        decisions.appliedWatermark(inputIndex.get(channel), watermark);
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
