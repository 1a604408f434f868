package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The topology's delay as the longest path through its task graph (a topological sort, modified to carry the
 * slowest arrival at each task instead of only an order): in Kahn's order, each task's completion delay is
 *
 * <pre>
 *   C(t) = W(t) + max over input channels u → t of ( C(u) + channel(u, t) )      C(source) = W(source)
 * </pre>
 *
 * where W is the task's sojourn under the {@link QueueingModel}. The end-to-end delay is the maximum of C over the
 * sinks (tasks without outputs), and the critical path is the chain of maximising inputs that leads to it.
 *
 * <p>Why the maximum: a task that joins several inputs (or the subtasks of an all-to-all edge) is as late as its
 * latest input for a record that depends on all of them, and the slowest path is what a latency bound needs. For a
 * record that takes one path only, its own path's sum is the delay; the maximum is then an upper bound, and
 * {@link TopologyDelay#meanEndToEndSeconds()} is only as good as that. Means add along a path, so each C is a mean;
 * a maximum of means is not the mean of a maximum, which makes C of a join a slight underestimate of its mean.
 *
 * <p>The same pass backwards gives each task's delay to the sinks, which a LOCAL recovery adds after its catch-up.
 */
public final class LongestPath {

    private LongestPath() {
    }

    /**
     * @throws IllegalArgumentException if the plan is empty or cyclic, or the loads are not for its tasks
     */
    public static TopologyDelay of(ExecutionPlan plan, TaskLoads loads, ChannelCosts costs, QueueingModel model) {
        if (plan.tasks().isEmpty()) {
            throw new IllegalArgumentException("the plan of '" + plan.topology() + "' has no tasks to model");
        }
        TaskGraph graph = TaskGraph.of(plan);
        Map<TaskId, TaskDelay> delays = new HashMap<>();
        for (TaskId task : graph.order()) {
            delays.put(task, model.delay(loads.of(task)));
        }
        Map<TaskId, OptionalDouble> completion = new HashMap<>();
        Map<TaskId, TaskId> slowestInput = new HashMap<>();
        for (TaskId task : graph.order()) {
            completion.put(task, completion(task, graph, delays, costs, completion, slowestInput));
        }
        Map<TaskId, OptionalDouble> toSink = new HashMap<>();
        List<TaskId> reversed = new ArrayList<>(graph.order());
        Collections.reverse(reversed);
        for (TaskId task : reversed) {
            toSink.put(task, toSink(task, graph, delays, costs, toSink));
        }

        List<TaskTiming> timings = new ArrayList<>();
        List<TaskId> saturated = new ArrayList<>();
        List<TaskId> sinks = new ArrayList<>();
        for (TaskId task : graph.order()) {
            timings.add(new TaskTiming(delays.get(task), completion.get(task), toSink.get(task)));
            if (delays.get(task).isUnstable()) {
                saturated.add(task);
            }
            if (graph.isSink(task)) {
                sinks.add(task);
            }
        }
        if (!saturated.isEmpty()) {
            return new TopologyDelay(timings, OptionalDouble.empty(), List.of(), OptionalDouble.empty(), saturated);
        }
        TaskId slowestSink = sinks.get(0);
        double weighted = 0;
        double weights = 0;
        for (TaskId sink : sinks) {
            double c = completion.get(sink).getAsDouble();
            if (c > completion.get(slowestSink).getAsDouble()) {
                slowestSink = sink;
            }
            double rate = loads.of(sink).arrivalPerSecond();
            weighted += rate * c;
            weights += rate;
        }
        OptionalDouble mean = weights > 0 ? OptionalDouble.of(weighted / weights) : OptionalDouble.empty();
        return new TopologyDelay(timings, completion.get(slowestSink),
                pathTo(slowestSink, delays, costs, completion, slowestInput), mean, List.of());
    }

    private static OptionalDouble completion(TaskId task, TaskGraph graph, Map<TaskId, TaskDelay> delays,
                                             ChannelCosts costs, Map<TaskId, OptionalDouble> completion,
                                             Map<TaskId, TaskId> slowestInput) {
        OptionalDouble sojourn = delays.get(task).sojournSeconds();
        double latestInput = 0;
        for (TaskId from : graph.upstreamOf(task)) {
            OptionalDouble upstream = completion.get(from);
            if (upstream.isEmpty()) {
                return OptionalDouble.empty();
            }
            double arrival = upstream.getAsDouble() + costs.between(from, task).seconds();
            if (!slowestInput.containsKey(task) || arrival > latestInput) {
                latestInput = arrival;
                slowestInput.put(task, from);
            }
        }
        return sojourn.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(latestInput + sojourn.getAsDouble());
    }

    private static OptionalDouble toSink(TaskId task, TaskGraph graph, Map<TaskId, TaskDelay> delays,
                                         ChannelCosts costs, Map<TaskId, OptionalDouble> toSink) {
        OptionalDouble sojourn = delays.get(task).sojournSeconds();
        double slowestRest = 0;
        for (TaskId to : graph.downstreamOf(task)) {
            OptionalDouble rest = toSink.get(to);
            if (rest.isEmpty()) {
                return OptionalDouble.empty();
            }
            slowestRest = Math.max(slowestRest, costs.between(task, to).seconds() + rest.getAsDouble());
        }
        return sojourn.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(sojourn.getAsDouble() + slowestRest);
    }

    private static List<PathStep> pathTo(TaskId sink, Map<TaskId, TaskDelay> delays, ChannelCosts costs,
                                         Map<TaskId, OptionalDouble> completion, Map<TaskId, TaskId> slowestInput) {
        List<PathStep> path = new ArrayList<>();
        TaskId task = sink;
        while (task != null) {
            TaskId from = slowestInput.get(task);
            double channel = from == null ? 0 : costs.between(from, task).seconds();
            path.add(new PathStep(task, channel, delays.get(task).sojournSeconds().getAsDouble(),
                    completion.get(task).getAsDouble()));
            task = from;
        }
        Collections.reverse(path);
        return path;
    }
}
