package io.steadfast.model;

import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The steps both recovery modes share, each as a {@link Term}: detection, restart, restore, and the arithmetic of a
 * backlog worked off at spare capacity.
 */
final class RecoverySteps {

    /** Tasks restored on one host, one after another. */
    record HostRestore(String host, List<TaskId> tasks) {

        HostRestore {
            tasks = List.copyOf(tasks);
        }
    }

    private final RecoveryInputs inputs;

    RecoverySteps(RecoveryInputs inputs) {
        this.inputs = inputs;
    }

    Term detection() {
        return Term.of(Term.DETECTION, inputs.settings().detectionSeconds(),
                "the router declares the host dead " + Figures.seconds(inputs.settings().detectionSeconds())
                        + " after it fails");
    }

    Term restart(int tasks, String which) {
        RestartCost cost = inputs.settings().restart();
        return Term.of(Term.RESTART, cost.seconds(tasks), Figures.tasks(tasks) + " (" + which + "): "
                + Figures.seconds(cost.perRecoverySeconds()) + " + " + tasks + " × "
                + Figures.seconds(cost.perTaskSeconds()) + " = " + Figures.seconds(cost.seconds(tasks)));
    }

    /**
     * A GLOBAL recovery's restart of every task, cancelled everywhere first: the hosts deploy their tasks in
     * parallel, so the per-task part is the busiest host's.
     */
    Term globalRestart(List<HostRestore> hosts) {
        RestartCost cost = inputs.settings().restart();
        HostRestore busiest = hosts.stream().max(java.util.Comparator.comparingInt(h -> h.tasks().size()))
                .orElseThrow();
        int tasks = busiest.tasks().size();
        return Term.of(Term.RESTART, cost.globalSeconds(tasks), "every task, cancelled on every live host first and"
                + " deployed by each host in parallel: " + Figures.seconds(cost.perRecoverySeconds()) + " + "
                + Figures.seconds(cost.globalExtraSeconds()) + " + " + tasks + " × "
                + Figures.seconds(cost.perTaskSeconds()) + " (busiest " + busiest.host() + ") = "
                + Figures.seconds(cost.globalSeconds(tasks)));
    }

    /**
     * The restore of {@code hosts}' tasks: under {@link RestoreOrder#SERIAL} every task's fetch after another, under
     * {@link RestoreOrder#PER_HOST} the slowest host's.
     */
    Term restore(List<HostRestore> hosts) {
        RestoreCost cost = inputs.settings().restore();
        List<TaskId> all = hosts.stream().flatMap(host -> host.tasks().stream()).toList();
        String each = Figures.bytes((long) cost.bytesPerSecond()) + "/s and " + Figures.seconds(cost.fetchSeconds())
                + " fetch per task";
        if (cost.order() == RestoreOrder.SERIAL || hosts.size() == 1) {
            double seconds = seconds(all);
            String where = hosts.size() == 1 ? "on " + hosts.get(0).host() + ", " : "";
            return Term.of(Term.RESTORE, seconds, Figures.tasks(all.size()) + ", " + Figures.bytes(bytes(all)) + ", "
                    + where + "one after another at " + each + " = " + Figures.seconds(seconds));
        }
        HostRestore slowest = hosts.get(0);
        for (HostRestore host : hosts) {
            if (seconds(host.tasks()) > seconds(slowest.tasks())) {
                slowest = host;
            }
        }
        double seconds = seconds(slowest.tasks());
        return Term.of(Term.RESTORE, seconds, Figures.tasks(all.size()) + ", " + Figures.bytes(bytes(all)) + ", on "
                + hosts.size() + " hosts in parallel, each one task after another at " + each + "; slowest "
                + slowest.host() + " with " + Figures.tasks(slowest.tasks().size()) + ", "
                + Figures.bytes(bytes(slowest.tasks())) + " = " + Figures.seconds(seconds));
    }

    private double seconds(List<TaskId> tasks) {
        RestoreCost cost = inputs.settings().restore();
        return tasks.stream().mapToDouble(task -> cost.seconds(inputs.loads().of(task).state().stateBytes())).sum();
    }

    private long bytes(List<TaskId> tasks) {
        return tasks.stream().mapToLong(task -> inputs.loads().of(task).state().stateBytes()).sum();
    }

    /**
     * The time since the checkpoint's cut when the recovered tasks start: checkpoint age + the steps before them.
     * This much input, at each task's rate, is its backlog.
     */
    double backlogSeconds(List<Term> stepsBefore) {
        return inputs.settings().checkpoint().ageAtFailureSeconds()
                + stepsBefore.stream().mapToDouble(term -> term.seconds().getAsDouble()).sum();
    }

    /** How {@link #backlogSeconds} adds up, for an explanation. */
    String backlogExplanation(List<Term> stepsBefore) {
        CheckpointTiming checkpoint = inputs.settings().checkpoint();
        return "T = " + Figures.seconds(backlogSeconds(stepsBefore)) + " (checkpoint age "
                + Figures.seconds(checkpoint.ageAtFailureSeconds()) + ", " + checkpoint.ageExplanation() + "; + "
                + stepsBefore.stream().map(term -> term.name() + " " + Figures.seconds(term.seconds().getAsDouble()))
                .collect(Collectors.joining(" + ")) + ")";
    }

    /**
     * The time to work off {@code backlogSeconds} of input at rate λ while new input keeps coming at λ, with service
     * rate μ: λ·T / (μ − λ) = T · ρ / (1 − ρ). Only for ρ < 1.
     */
    static double drainSeconds(double backlogSeconds, double utilisation) {
        return backlogSeconds * utilisation / (1 - utilisation);
    }

    /** "wc/count#0 (ρ = 1.20)", for the tasks that keep a catch-up from ending. */
    String saturated(List<TaskId> tasks) {
        return tasks.stream()
                .map(task -> task + " (ρ = " + Figures.utilisation(inputs.delay().delay(task).utilisation()) + ")")
                .collect(Collectors.joining(", "));
    }
}
