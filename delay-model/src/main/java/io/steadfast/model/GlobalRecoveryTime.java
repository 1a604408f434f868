package io.steadfast.model;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import java.util.ArrayList;
import java.util.List;

/**
 * The predicted time of a GLOBAL recovery from losing one host: every task of the job rolls back to the latest
 * completed checkpoint and processes its input since then again.
 *
 * <pre>
 *   detection  = measured / from heartbeat settings
 *   restart    = per recovery + global extra (cancel everywhere) + the busiest host's tasks × per task
 *   restore    = every task's fetch + state / bandwidth; SERIAL: summed; PER_HOST: the slowest host's sum
 *   T          = checkpoint age + detection + restart + restore
 *   drain(i)   = λ_i · T / (μ_i − λ_i) = T · ρ_i / (1 − ρ_i)
 *   catch-up   = max( max over all tasks of drain(i) + end-to-end delay, seen-after )
 *   total      = detection + restart + restore + catch-up
 * </pre>
 *
 * Assumptions: the tasks drain concurrently, pipelined, each at its own spare capacity, so the job is caught up when
 * the slowest has, and its last record then crosses the job once (the end-to-end delay). The job is placed anew on
 * the live hosts: each keeps its tasks and the lost host's are dealt over them in turn (host order, plan order),
 * which decides the slowest host under {@link RestoreOrder#PER_HOST}; with no live host left, one replacement host
 * takes them. The router sees a GLOBAL recovery caught up no sooner than
 * {@link RecoverySettings#globalCatchUpSeenAfterSeconds()} after the redeployment (it waits for fresh heartbeats),
 * so a job that catches up sooner is recorded as caught up then. Each host restarts its tasks one after another,
 * the hosts in parallel. A task at ρ ≥ 1 never works off its backlog: the prediction then says the job never catches
 * up and names it.
 */
public final class GlobalRecoveryTime {

    private final RecoveryInputs inputs;
    private final RecoverySteps steps;

    public GlobalRecoveryTime(RecoveryInputs inputs) {
        this.inputs = inputs;
        this.steps = new RecoverySteps(inputs);
    }

    /** @throws IllegalArgumentException if {@code host} runs no task of the job */
    public RecoveryPrediction ifLost(HostId host) {
        List<TaskId> lost = inputs.placement().tasksOn(host);
        if (lost.isEmpty()) {
            throw new IllegalArgumentException("host " + host + " runs no task of '" + inputs.plan().topology() + "'");
        }
        List<Term> terms = new ArrayList<>();
        terms.add(steps.detection());
        List<RecoverySteps.HostRestore> placed = placedAnew(host);
        terms.add(steps.globalRestart(placed));
        terms.add(steps.restore(placed));
        double backlog = steps.backlogSeconds(terms);
        double reprocessed = inputs.loads().all().stream().mapToDouble(load -> load.arrivalPerSecond() * backlog).sum();
        List<TaskId> saturated = inputs.delay().saturatedTasks();
        terms.add(saturated.isEmpty() ? catchUp(terms) : Term.never(Term.CATCH_UP, "never catches up at these rates: "
                + steps.saturated(saturated) + " take in records faster than they serve them, with no spare capacity"
                + " to work off a backlog"));
        return RecoveryPrediction.of(RecoveryMode.GLOBAL, host, lost, terms, reprocessed, saturated);
    }

    private List<RecoverySteps.HostRestore> placedAnew(HostId lostHost) {
        List<HostId> live = inputs.placement().hosts().stream().filter(h -> !h.equals(lostHost)).toList();
        List<TaskId> lost = inputs.placement().tasksOn(lostHost);
        if (live.isEmpty()) {
            return List.of(new RecoverySteps.HostRestore("a replacement host", lost));
        }
        List<List<TaskId>> tasks = new ArrayList<>();
        live.forEach(h -> tasks.add(new ArrayList<>(inputs.placement().tasksOn(h))));
        for (int i = 0; i < lost.size(); i++) {
            tasks.get(i % live.size()).add(lost.get(i));
        }
        List<RecoverySteps.HostRestore> hosts = new ArrayList<>();
        for (int h = 0; h < live.size(); h++) {
            hosts.add(new RecoverySteps.HostRestore(live.get(h).value(), tasks.get(h)));
        }
        return hosts;
    }

    private Term catchUp(List<Term> stepsBefore) {
        double backlog = steps.backlogSeconds(stepsBefore);
        TaskDelay slowest = null;
        for (TaskTiming timing : inputs.delay().tasks()) {
            if (slowest == null || timing.delay().utilisation() > slowest.utilisation()) {
                slowest = timing.delay();
            }
        }
        double drain = RecoverySteps.drainSeconds(backlog, slowest.utilisation());
        double endToEnd = inputs.delay().endToEndSeconds().getAsDouble();
        double seenAfter = inputs.settings().globalCatchUpSeenAfterSeconds();
        String caughtUp = "every task processes again " + steps.backlogExplanation(stepsBefore) + " of input at its"
                + " spare capacity, all at once, in T · ρ / (1 − ρ); slowest " + slowest.task() + " at ρ = "
                + Figures.utilisation(slowest.utilisation()) + ": " + Figures.seconds(drain)
                + ", then the end-to-end delay " + Figures.seconds(endToEnd) + " once = "
                + Figures.seconds(drain + endToEnd);
        if (seenAfter > drain + endToEnd) {
            return Term.of(Term.CATCH_UP, seenAfter, caughtUp + "; the router sees it only "
                    + Figures.seconds(seenAfter) + " after the redeployment, at its hosts' fresh heartbeats");
        }
        return Term.of(Term.CATCH_UP, drain + endToEnd, caughtUp);
    }
}
