package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The tasks of a plan as a directed acyclic graph, one edge per channel, ordered by Kahn's algorithm: a task comes
 * after every task it reads from. The order is computed, not taken from the plan, so that a plan built by hand in
 * any order is modelled alike. Ties keep plan order, so the result is deterministic. Immutable.
 */
final class TaskGraph {

    private final List<TaskId> order;
    private final Map<TaskId, List<TaskId>> upstream;
    private final Map<TaskId, List<TaskId>> downstream;

    private TaskGraph(List<TaskId> order, Map<TaskId, List<TaskId>> upstream, Map<TaskId, List<TaskId>> downstream) {
        this.order = List.copyOf(order);
        this.upstream = upstream;
        this.downstream = downstream;
    }

    /** @throws IllegalArgumentException if a task reads from a task not in the plan, or the tasks form a cycle */
    static TaskGraph of(ExecutionPlan plan) {
        Map<TaskId, List<TaskId>> upstream = new HashMap<>();
        Map<TaskId, List<TaskId>> downstream = new HashMap<>();
        Map<TaskId, Integer> unresolved = new HashMap<>();
        for (TaskSpec task : plan.tasks()) {
            downstream.putIfAbsent(task.id(), new ArrayList<>());
            List<TaskId> from = new ArrayList<>();
            for (InputChannel input : task.inputs()) {
                if (plan.task(input.from()).isEmpty()) {
                    throw new IllegalArgumentException("task " + task.id() + " reads channel " + input.channel()
                            + " from task " + input.from() + ", which is not in the plan");
                }
                from.add(input.from());
                downstream.computeIfAbsent(input.from(), t -> new ArrayList<>()).add(task.id());
            }
            upstream.put(task.id(), List.copyOf(from));
            unresolved.put(task.id(), from.size());
        }
        Deque<TaskId> ready = new ArrayDeque<>();
        plan.tasks().stream().map(TaskSpec::id).filter(id -> unresolved.get(id) == 0).forEach(ready::add);
        List<TaskId> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            TaskId next = ready.poll();
            order.add(next);
            for (TaskId reader : downstream.get(next)) {
                if (unresolved.merge(reader, -1, Integer::sum) == 0) {
                    ready.add(reader);
                }
            }
        }
        if (order.size() < plan.tasks().size()) {
            String left = plan.tasks().stream().map(TaskSpec::id).filter(id -> !order.contains(id))
                    .map(TaskId::toString).collect(Collectors.joining(", "));
            throw new IllegalArgumentException("the plan of '" + plan.topology() + "' has a cycle among tasks " + left
                    + "; a delay model needs an acyclic plan");
        }
        downstream.replaceAll((task, readers) -> List.copyOf(readers));
        return new TaskGraph(order, Map.copyOf(upstream), Map.copyOf(downstream));
    }

    /** Every task, upstream first. */
    List<TaskId> order() {
        return order;
    }

    /** The task at the other end of each input channel of {@code task}, in input order (repeats possible). */
    List<TaskId> upstreamOf(TaskId task) {
        return upstream.get(task);
    }

    /** The task at the other end of each output channel of {@code task}. */
    List<TaskId> downstreamOf(TaskId task) {
        return downstream.get(task);
    }

    /** Whether {@code task} sends to no task. */
    boolean isSink(TaskId task) {
        return downstream.get(task).isEmpty();
    }

    /** Every task that {@code tasks} reach through one or more channels, not counting {@code tasks}, in order. */
    Set<TaskId> reachableFrom(Set<TaskId> tasks) {
        Set<TaskId> reached = new LinkedHashSet<>();
        for (TaskId task : order) {
            boolean fed = upstream.get(task).stream().anyMatch(u -> tasks.contains(u) || reached.contains(u));
            if (fed && !tasks.contains(task)) {
                reached.add(task);
            }
        }
        return reached;
    }
}
