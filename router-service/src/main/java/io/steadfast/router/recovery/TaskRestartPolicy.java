package io.steadfast.router.recovery;

import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * When a task that failed on a live host (it threw; its host runs on) is restarted, and when its topology gives up:
 * at most {@code maxAttempts} restarts of one task within {@code window}, the n-th of them (n from 1) no earlier than
 * {@code initialBackoff × 2^(n-1)} (at most {@code maxBackoff}) after the one before. A task that fails once more with
 * no restart left fails its topology. Pure bookkeeping on the caller's clock; not thread-safe (the recovery thread owns
 * it).
 */
final class TaskRestartPolicy {

    /** What to do about a failed task now. */
    sealed interface Decision permits RestartNow, WaitUntil, GiveUp {
    }

    /** Restart it now; this is restart {@code attempt} of the window. */
    record RestartNow(int attempt) implements Decision {
    }

    /** Restart it, but not before {@code when}. */
    record WaitUntil(Instant when) implements Decision {
    }

    /** It failed {@code attempts} times within the window already: its topology fails. */
    record GiveUp(int attempts) implements Decision {
    }

    private final int maxAttempts;
    private final Duration window;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Map<TaskId, Deque<Instant>> restarts = new HashMap<>();

    TaskRestartPolicy(int maxAttempts, Duration window, Duration initialBackoff, Duration maxBackoff) {
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("maxAttempts must be >= 0, was " + maxAttempts);
        }
        this.maxAttempts = maxAttempts;
        this.window = window;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    Duration window() {
        return window;
    }

    /** What to do about {@code task}, found failed at {@code now}. */
    Decision decide(TaskId task, Instant now) {
        Deque<Instant> recent = recent(task, now);
        if (recent.size() >= maxAttempts) {
            return new GiveUp(recent.size());
        }
        if (recent.isEmpty()) {
            return new RestartNow(1);
        }
        Instant due = recent.peekLast().plus(backoff(recent.size()));
        return now.isBefore(due) ? new WaitUntil(due) : new RestartNow(recent.size() + 1);
    }

    /** {@code task} was restarted at {@code at}. */
    void restarted(TaskId task, Instant at) {
        restarts.computeIfAbsent(task, t -> new ArrayDeque<>()).addLast(at);
    }

    /** Forgets a topology's tasks (it was cancelled or gave up). */
    void forget(java.util.function.Predicate<TaskId> tasks) {
        restarts.keySet().removeIf(tasks);
    }

    /** The wait before the restart that follows {@code done} restarts in the window. */
    Duration backoff(int done) {
        Duration wait = initialBackoff;
        for (int i = 1; i < done && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }

    private Deque<Instant> recent(TaskId task, Instant now) {
        Deque<Instant> recent = restarts.getOrDefault(task, new ArrayDeque<>());
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(now.minus(window))) {
            recent.pollFirst();
        }
        return recent;
    }
}
