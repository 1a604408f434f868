package io.steadfast.router.recovery;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many times the tasks of each operator failed (threw) on a live host and were restarted in place, since this
 * router started: each failed incarnation of a task counts once, however often its report is seen. Shown per version
 * of an N-version operator by the votes view, and as the counter {@code steadfast.votes.failed} tagged with
 * {@code topology}, {@code operator} (the N-version operator) and {@code version}, beside the voters' counters of the
 * same family. Thread-safe.
 */
public final class TaskFailureCounts implements MeterBinder {

    private final Set<String> counted = ConcurrentHashMap.newKeySet();
    private final Map<TopologyId, Map<OperatorId, AtomicLong>> failures = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /** Incarnation {@code incarnation} of {@code task} was reported failed. */
    void failed(TaskId task, Integer incarnation) {
        if (counted.add(task + "@" + incarnation)) {
            failures.computeIfAbsent(task.topology(), t -> new ConcurrentHashMap<>())
                    .computeIfAbsent(task.operator(), operator -> meter(task.topology(), operator, new AtomicLong()))
                    .incrementAndGet();
        }
    }

    /** The failures of the operator's tasks so far. */
    public long of(TopologyId topology, OperatorId operator) {
        AtomicLong count = failures.getOrDefault(topology, Map.of()).get(operator);
        return count == null ? 0 : count.get();
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        this.registry = meters;
        failures.forEach((topology, operators) -> operators.forEach((operator, count) -> meter(topology, operator,
                count)));
    }

    /** Registers the counter of a version's failures, once a registry is bound; returns {@code count}. */
    private AtomicLong meter(TopologyId topology, OperatorId operator, AtomicLong count) {
        MeterRegistry meters = registry;
        if (meters != null && operator.isVersion()) {
            FunctionCounter.builder("steadfast.votes.failed", count, AtomicLong::get)
                    .description("Times a task of the version failed and was restarted in place")
                    .tags("topology", topology.value(), "operator", operator.versionedOperator().value(),
                            "version", Integer.toString(operator.versionIndex()))
                    .register(meters);
        }
        return count;
    }
}
