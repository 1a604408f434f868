package io.steadfast.model;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The predicted time of a LOCAL recovery from losing one host: only the lost tasks restore from the latest completed
 * checkpoint; their live upstream tasks replay what they logged to them since, and their live downstream tasks drop
 * what they had already. Every other task keeps running.
 *
 * <pre>
 *   detection  = measured / from heartbeat settings
 *   restart    = per recovery + lost tasks × per task
 *   restore    = the lost tasks' fetch + state / bandwidth, one after another on the replacement host
 *   T          = checkpoint age + detection + restart + restore
 *   replay(i)  = λ_i · T records, from the upstream logs; drain(i) = T · ρ_i / (1 − ρ_i)
 *   dedupe(i)  = logged_i · skip / (1 − max ρ of i's live downstream tasks)
 *   catch-up   = max over lost tasks of ( max(drain(i), dedupe(i)) + delay from i to the sinks )
 *   total      = detection + restart + restore + catch-up
 * </pre>
 *
 * Assumptions: the lost tasks go to one replacement host (the standby) and drain concurrently, each at its own spare
 * capacity. The records a lost task sends again (its output since the checkpoint, {@link TaskState#loggedRecords()})
 * are dropped by its downstream tasks while it replays, in their spare time, all by the busiest of them (an upper
 * bound); those tasks are not otherwise delayed, and tasks neither lost nor downstream of one are untouched. A task
 * is caught up when its replayed output has crossed to the sinks. A lost task, or one downstream of it, at ρ ≥ 1
 * never lets it catch up: the prediction then says so and names it.
 */
public final class LocalRecoveryTime {

    private final RecoveryInputs inputs;
    private final RecoverySteps steps;
    private final TaskGraph graph;

    public LocalRecoveryTime(RecoveryInputs inputs) {
        this.inputs = inputs;
        this.steps = new RecoverySteps(inputs);
        this.graph = TaskGraph.of(inputs.plan());
    }

    /** @throws IllegalArgumentException if {@code host} runs no task of the job */
    public RecoveryPrediction ifLost(HostId host) {
        List<TaskId> lost = inputs.placement().tasksOn(host);
        if (lost.isEmpty()) {
            throw new IllegalArgumentException("host " + host + " runs no task of '" + inputs.plan().topology() + "'");
        }
        List<Term> terms = new ArrayList<>();
        terms.add(steps.detection());
        terms.add(steps.restart(lost.size(), "lost"));
        terms.add(steps.restore(List.of(new RecoverySteps.HostRestore("the replacement host", lost))));
        double backlog = steps.backlogSeconds(terms);
        double replayed = lost.stream().mapToDouble(task -> inputs.loads().of(task).arrivalPerSecond() * backlog).sum();
        Set<TaskId> affected = new LinkedHashSet<>(lost);
        affected.addAll(graph.reachableFrom(Set.copyOf(lost)));
        List<TaskId> saturated = graph.order().stream()
                .filter(task -> affected.contains(task) && inputs.delay().delay(task).isUnstable()).toList();
        terms.add(saturated.isEmpty() ? catchUp(lost, terms, replayed) : Term.never(Term.CATCH_UP,
                "never catches up at these rates: " + steps.saturated(saturated) + " take in records faster than they"
                        + " serve them, with no spare capacity to work off the replay"));
        return RecoveryPrediction.of(RecoveryMode.LOCAL, host, lost, terms, replayed, saturated);
    }

    private Term catchUp(List<TaskId> lost, List<Term> stepsBefore, double replayed) {
        double backlog = steps.backlogSeconds(stepsBefore);
        TaskId slowest = null;
        double slowestSeconds = -1;
        String slowestDetail = "";
        for (TaskId task : lost) {
            TaskDelay delay = inputs.delay().delay(task);
            double drain = RecoverySteps.drainSeconds(backlog, delay.utilisation());
            long logged = inputs.loads().of(task).state().loggedRecords();
            double dedupe = dedupeSeconds(task, logged, lost);
            double toSinks = inputs.delay().timing(task).toSinkSeconds().getAsDouble();
            double seconds = Math.max(drain, dedupe) + toSinks;
            if (seconds > slowestSeconds) {
                slowest = task;
                slowestSeconds = seconds;
                String dropped = dedupe == 0 ? "" : ", its downstream dropping the " + Figures.records(logged)
                        + " records it had " + Figures.seconds(dedupe) + " meanwhile";
                slowestDetail = " at ρ = " + Figures.utilisation(delay.utilisation()) + ": drain "
                        + Figures.seconds(drain) + dropped + ", then " + Figures.seconds(toSinks) + " to the sinks = "
                        + Figures.seconds(seconds);
            }
        }
        return Term.of(Term.CATCH_UP, slowestSeconds, "each lost task replays " + steps.backlogExplanation(stepsBefore)
                + " of input from its upstream logs (" + Figures.records(replayed) + " records in all) at its spare"
                + " capacity, in T · ρ / (1 − ρ); slowest " + slowest + slowestDetail);
    }

    /** The time the live downstream tasks of {@code task} take to drop {@code logged} records, in spare time. */
    private double dedupeSeconds(TaskId task, long logged, List<TaskId> lost) {
        double busiest = graph.downstreamOf(task).stream().filter(down -> !lost.contains(down))
                .mapToDouble(down -> inputs.delay().delay(down).utilisation()).max().orElse(-1);
        if (busiest < 0) {
            return 0;
        }
        return logged * inputs.settings().skipSecondsPerRecord() / (1 - busiest);
    }
}
