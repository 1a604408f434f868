package io.steadfast.host.execution;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.voting.VoteConfig;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import tools.jackson.databind.json.JsonMapper;

/**
 * Per-task counters {@code steadfast.task.records.in}, {@code steadfast.task.records.out},
 * {@code steadfast.task.records.sent}, and the seconds {@code steadfast.task.busy}, {@code steadfast.task.residence}
 * (whose rate over that of records in is the mean latency at the task) and {@code steadfast.task.output.wait} (whose
 * rate over that of records sent is the mean wait in output frames), tagged with
 * {@code topology}, {@code operator} and {@code subtask} (bounded by the deployed tasks; never a record key): counts
 * that only grow while the task runs here, so Prometheus' {@code rate()} applies (a task restored elsewhere starts
 * its count again, which a counter's reset handling absorbs).
 * Registered on deploy, removed on cancel; vote tasks also get {@link VoteMeters}. Thread-safe.
 */
public final class TaskMeters {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MeterRegistry registry;
    private final HostRuntime runtime;
    private final Map<TaskId, List<Meter>> meters = new ConcurrentHashMap<>();
    private final VoteMeters votes;

    public TaskMeters(MeterRegistry registry, HostRuntime runtime) {
        this.registry = registry;
        this.runtime = runtime;
        this.votes = new VoteMeters(registry, runtime);
    }

    /** Registers the meters of {@code tasks} of {@code plan}; vote tasks get the votes' meters too. */
    public void register(ExecutionPlan plan, List<TaskId> tasks) {
        Set<TaskId> started = Set.copyOf(tasks);
        for (TaskSpec spec : plan.tasks()) {
            if (started.contains(spec.id()) && BuiltinOperators.VOTE.equals(spec.type())) {
                VoteConfig config = JSON.treeToValue(spec.config(), VoteConfig.class);
                votes.register(spec.id(), config.versions(), config.window());
            }
        }
        for (TaskId task : tasks) {
            Tags tags = Tags.of("topology", task.topology().value(), "operator", task.operator().value(),
                    "subtask", Integer.toString(task.subtask()));
            meters.put(task, List.of(
                    counter("steadfast.task.records.in", "Records taken in by the task", tags, task,
                            t -> t.metrics().recordsIn()),
                    counter("steadfast.task.records.out", "Events emitted by the task", tags, task,
                            t -> t.metrics().recordsOut()),
                    seconds("steadfast.task.busy", "Time the task's thread spent processing input or polling its "
                            + "source", tags, task, t -> t.metrics().busyNanos()),
                    seconds("steadfast.task.residence", "Time the records taken in spent in the task (queueing and "
                            + "processing), summed over them: divided by records in, their mean latency here", tags,
                            task, t -> t.metrics().residenceNanos()),
                    counter("steadfast.task.records.sent", "Events sent in output frames, one per receiving channel",
                            tags, task, t -> t.metrics().recordsSent()),
                    seconds("steadfast.task.output.wait", "Time the events sent waited in output frames before they"
                            + " left (batching), summed over them: divided by records sent, their mean wait", tags,
                            task, t -> t.metrics().outputWaitNanos())));
        }
    }

    public void remove(TopologyId topology) {
        votes.remove(topology);
        meters.keySet().removeIf(task -> {
            if (!task.topology().equals(topology)) {
                return false;
            }
            meters.get(task).forEach(registry::remove);
            return true;
        });
    }

    private Meter counter(String name, String description, Tags tags, TaskId task, ToLongFunction<StreamTask> value) {
        return FunctionCounter.builder(name, runtime, r -> r.task(task).map(value::applyAsLong).orElse(0L))
                .description(description).tags(tags).register(registry);
    }

    /** A counter of seconds from a count of nanoseconds. */
    private Meter seconds(String name, String description, Tags tags, TaskId task, ToLongFunction<StreamTask> nanos) {
        return FunctionCounter.builder(name, runtime, r -> r.task(task).map(nanos::applyAsLong).orElse(0L) / 1e9)
                .description(description).baseUnit("seconds").tags(tags).register(registry);
    }
}
