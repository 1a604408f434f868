package io.steadfast.router.recovery;

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
 * of an N-version operator by the votes view. Thread-safe.
 */
public final class TaskFailureCounts {

    private final Set<String> counted = ConcurrentHashMap.newKeySet();
    private final Map<TopologyId, Map<OperatorId, AtomicLong>> failures = new ConcurrentHashMap<>();

    /** Incarnation {@code incarnation} of {@code task} was reported failed. */
    void failed(TaskId task, Integer incarnation) {
        if (counted.add(task + "@" + incarnation)) {
            failures.computeIfAbsent(task.topology(), t -> new ConcurrentHashMap<>())
                    .computeIfAbsent(task.operator(), o -> new AtomicLong()).incrementAndGet();
        }
    }

    /** The failures of the operator's tasks so far. */
    public long of(TopologyId topology, OperatorId operator) {
        AtomicLong count = failures.getOrDefault(topology, Map.of()).get(operator);
        return count == null ? 0 : count.get();
    }
}
