package io.steadfast.runtime.recovery;

import io.steadfast.api.source.Source;
import io.steadfast.runtime.plan.ChannelId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays the logged decisions of a task recovered in place before it runs freely: it takes input in the logged order,
 * applies the logged watermarks and processing-time readings, and a source sends its barriers at the logged positions, so that the task regenerates
 * exactly the output its receivers have seen. The decisions known ahead are replayed at once, those confirmed after
 * them once they are in. Task thread only.
 *
 * @param <I> an input frame as the task holds it while processing it
 */
public final class DecisionReplay<I> {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionReplay.class);
    /** How often a task waiting for its logged decisions looks whether it was cancelled. */
    private static final Duration DECISIONS_WAIT_SLICE = Duration.ofMillis(50);

    private final ReplayedTask<I> task;
    private final DecisionRecorder recorder;
    private final List<ChannelId> inputs;
    /** While not null, the task replays logged decisions before it runs freely. */
    private InputReplay<I> replay;
    /**
     * While not null, the logged decisions that follow those being replayed (which were known ahead), still being
     * confirmed: the replay goes on with them, if any, once they are in.
     */
    private CompletableFuture<byte[]> rest;
    /** Checkpoints a recovered source was asked for while it still replayed its logged barriers. */
    private final List<Long> deferredTriggers = new ArrayList<>();

    public DecisionReplay(ReplayedTask<I> task, DecisionRecorder recorder, List<ChannelId> inputs) {
        this.task = task;
        this.recorder = recorder;
        this.inputs = List.copyOf(inputs);
    }

    /**
     * Starts replaying {@code known} (encoded decisions from the log offset {@code startOffset} on, known already),
     * then those in {@code rest}, which follow them in the log. With nothing known ahead it waits for {@code rest}
     * here, until it is in or {@code cancelled} says the task was cancelled.
     *
     * @throws IllegalStateException if the decisions could not be collected: the task fails
     */
    public void begin(byte[] known, CompletableFuture<byte[]> rest, long startOffset, BooleanSupplier cancelled) {
        Decision.Parsed knownAhead = Decision.parse(known);
        if (!knownAhead.decisions().isEmpty()) {
            replay = new InputReplay<>(knownAhead, startOffset, inputs, task::channelOf);
            this.rest = rest;
            recorder.setReplaying(true);
            LOG.info("Task {} replays {} logged decisions known ahead, then those confirmed after them", task.id(),
                    knownAhead.decisions().size());
            return;
        }
        Optional<byte[]> logged = await(rest, cancelled);
        if (logged.isEmpty()) {
            return; // cancelled meanwhile: the stop mail ends the task
        }
        Decision.Parsed replayed = Decision.parse(logged.get());
        if (!replayed.decisions().isEmpty()) {
            replay = new InputReplay<>(replayed, startOffset, inputs, task::channelOf);
            recorder.setReplaying(true);
            LOG.info("Task {} replays {} logged decisions", task.id(), replayed.decisions().size());
        }
    }

    /** Whether the task still replays logged decisions. */
    public boolean isActive() {
        return replay != null;
    }

    /**
     * The log offset a snapshot for {@code checkpointId} taken now restarts from (see
     * {@link DecisionRecorder#markCheckpoint}).
     */
    public long markCheckpoint(long checkpointId) {
        return recorder.markCheckpoint(checkpointId, replay == null ? 0 : replay.offsetAfterCurrent());
    }

    /** A source asked for a checkpoint while replaying sends its barrier after the logged ones. */
    public void deferTrigger(long checkpointId) {
        deferredTriggers.add(checkpointId);
    }

    /**
     * Emits up to the position of the next logged barrier and sends it there; once every logged barrier is sent, the
     * source runs freely, starting with the checkpoints it was asked for meanwhile. Returns whether anything was done.
     */
    public boolean stepSource() {
        if (replay.isDone()) {
            return endOfReplayed();
        }
        if (replay.next() instanceof Decision.Run) {
            int emitted = task.emitFromSource(replay.remainingOfRun());
            if (emitted == Source.EXHAUSTED) {
                throw new IllegalStateException("source task " + task.id() + " ended at " + task.sourcePosition()
                        + " while replaying events it emitted before");
            }
            replay.took(emitted);
            return emitted > 0;
        }
        Decision.SourceBarrier barrier = (Decision.SourceBarrier) replay.next();
        if (barrier.position() != task.sourcePosition()) {
            throw new IllegalStateException("source task " + task.id() + " is at " + task.sourcePosition()
                    + " where it sent barrier " + barrier.checkpointId() + " at " + barrier.position());
        }
        task.completeCheckpoint(barrier.checkpointId());
        replay.advance();
        return true;
    }

    /**
     * Takes input in the logged order: records from the channel each run names, watermarks as logged. Returns whether
     * anything was done.
     */
    public boolean stepInput() {
        I arrived;
        while ((arrived = task.pollArrived()) != null) {
            replay.queue(arrived);
        }
        if (replay.isDone()) {
            return endOfReplayed();
        }
        Decision next = replay.next();
        if (next instanceof Decision.AppliedWatermark watermark) {
            task.applyWatermark(inputs.get(watermark.input()), watermark.value());
            replay.advance();
            return true;
        }
        if (next instanceof Decision.ProcessingTime time) {
            task.advanceProcessingTime(time.millis());
            replay.advance();
            return true;
        }
        if (next instanceof Decision.Run run) {
            Deque<I> queue = replay.queueOf(inputs.get(run.input()));
            I head = queue.peekFirst();
            if (head == null) {
                return false; // the logged input has not arrived yet
            }
            int taken = task.take(head, replay.remainingOfRun());
            if (task.isDone(head)) {
                queue.pollFirst();
            }
            replay.took(taken);
            return true;
        }
        throw new IllegalStateException("task " + task.id() + " cannot replay " + next);
    }

    /**
     * At the end of the decisions replayed so far: goes on with those confirmed after them once they are in, or ends
     * the replay if there are none (more). Returns whether anything was done; the task wakes when they come in.
     */
    private boolean endOfReplayed() {
        if (rest == null) {
            finish();
            return true;
        }
        if (!rest.isDone()) {
            return false;
        }
        byte[] confirmed;
        try {
            confirmed = rest.join();
        } catch (CompletionException | CancellationException e) {
            throw new IllegalStateException("the logged decisions of task " + task.id() + " after those known ahead"
                    + " could not be collected: " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
        rest = null;
        Decision.Parsed more = Decision.parse(confirmed);
        if (more.decisions().isEmpty()) {
            finish();
        } else {
            replay.extend(more);
            LOG.info("Task {} replays {} more logged decisions, confirmed after those known ahead", task.id(),
                    more.decisions().size());
        }
        return true;
    }

    private void finish() {
        List<I> queued = replay.drain();
        replay = null;
        recorder.setReplaying(false);
        task.runFreely(queued);
        LOG.info("Task {} replayed its logged decisions and runs freely", task.id());
        deferredTriggers.stream().max(Long::compare).ifPresent(task::sendBarrier);
        deferredTriggers.clear();
    }

    /**
     * The task's logged decisions, waited for after its state is restored (its host may still be collecting them);
     * empty if the task is cancelled meanwhile.
     */
    private Optional<byte[]> await(CompletableFuture<byte[]> decisions, BooleanSupplier cancelled) {
        while (!cancelled.getAsBoolean()) {
            try {
                return Optional.of(decisions.get(DECISIONS_WAIT_SLICE.toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                // still being collected
            } catch (ExecutionException e) {
                throw new IllegalStateException("the logged decisions of task " + task.id() + " could not be"
                        + " collected: " + e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("task " + task.id() + " was interrupted waiting for its logged"
                        + " decisions", e);
            }
        }
        return Optional.empty();
    }
}
