package io.steadfast.model;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The predicted time from losing a host until the job has caught up, in one recovery mode, step by step.
 *
 * @param mode how the job recovers
 * @param lostHost the host lost
 * @param lostTasks the tasks it ran, in plan order
 * @param terms detection, restart, restore and catch-up, in that order
 * @param totalSeconds the sum of the terms; empty if the catch-up never ends
 * @param catchUpSeconds the catch-up term alone; empty if it never ends
 * @param reprocessedRecords the input processed again: for LOCAL, what the upstream logs replay to the lost tasks;
 *                           for GLOBAL, what every task takes in again from the checkpoint on
 * @param saturatedTasks the tasks without spare capacity (ρ ≥ 1) that keep the catch-up from ending; empty if it
 *                       ends
 */
public record RecoveryPrediction(RecoveryMode mode, HostId lostHost, List<TaskId> lostTasks, List<Term> terms,
                                 OptionalDouble totalSeconds, OptionalDouble catchUpSeconds,
                                 double reprocessedRecords, List<TaskId> saturatedTasks) {

    public RecoveryPrediction {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(lostHost, "lostHost");
        lostTasks = List.copyOf(lostTasks);
        terms = List.copyOf(terms);
        Objects.requireNonNull(totalSeconds, "totalSeconds");
        Objects.requireNonNull(catchUpSeconds, "catchUpSeconds");
        saturatedTasks = List.copyOf(saturatedTasks);
        boolean allDefined = terms.stream().allMatch(term -> term.seconds().isPresent());
        if (totalSeconds.isPresent() != allDefined || catchUpSeconds.isPresent() != saturatedTasks.isEmpty()) {
            throw new IllegalArgumentException("a " + mode + " prediction for " + lostHost + " has a total exactly when"
                    + " every term has seconds, and a catch-up exactly when no task is saturated");
        }
    }

    /** A prediction whose total and catch-up are taken from its terms. */
    static RecoveryPrediction of(RecoveryMode mode, HostId lostHost, List<TaskId> lostTasks, List<Term> terms,
                                 double reprocessedRecords, List<TaskId> saturatedTasks) {
        boolean allDefined = terms.stream().allMatch(term -> term.seconds().isPresent());
        OptionalDouble total = allDefined
                ? OptionalDouble.of(terms.stream().mapToDouble(term -> term.seconds().getAsDouble()).sum())
                : OptionalDouble.empty();
        OptionalDouble catchUp = terms.stream().filter(term -> term.name().equals(Term.CATCH_UP)).findFirst()
                .map(Term::seconds).orElse(OptionalDouble.empty());
        return new RecoveryPrediction(mode, lostHost, lostTasks, terms, total, catchUp, reprocessedRecords,
                saturatedTasks);
    }

    /** Whether the job never catches up at the given rates: a task it needs has no spare capacity. */
    public boolean neverCatchesUp() {
        return totalSeconds.isEmpty();
    }

    /** @throws IllegalArgumentException if there is no term of that name */
    public Term term(String name) {
        return terms.stream().filter(term -> term.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no term '" + name + "' in " + terms));
    }
}
