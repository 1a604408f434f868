package io.steadfast.router.placement;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.OperatorId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spreads each operator's subtasks round-robin over the hosts, least loaded first (ties by host id): for every
 * operator in plan order the hosts are sorted by their load so far, subtask {@code i} goes to the
 * {@code i mod n}-th, and the loads are updated. So the subtasks of one operator land on distinct hosts where
 * possible and the total load stays within one task of even. Deterministic.
 */
public final class EvenTaskPlacer implements TaskPlacer {

    @Override
    public Map<TaskId, HostId> place(ExecutionPlan plan, Map<HostId, Integer> currentLoad) {
        if (currentLoad.isEmpty()) {
            throw new IllegalArgumentException("no host to place topology '" + plan.topology() + "' on");
        }
        Map<HostId, Integer> load = new HashMap<>(currentLoad);
        Comparator<HostId> leastLoaded = Comparator.<HostId>comparingInt(load::get).thenComparing(HostId::value);
        Map<OperatorId, List<TaskSpec>> byOperator = new LinkedHashMap<>();
        plan.tasks().forEach(task -> byOperator.computeIfAbsent(task.id().operator(), o -> new ArrayList<>()).add(task));
        Map<TaskId, HostId> placement = new LinkedHashMap<>();
        for (List<TaskSpec> subtasks : byOperator.values()) {
            List<HostId> hosts = new ArrayList<>(load.keySet());
            hosts.sort(leastLoaded);
            for (int i = 0; i < subtasks.size(); i++) {
                HostId host = hosts.get(i % hosts.size());
                placement.put(subtasks.get(i).id(), host);
                load.merge(host, 1, Integer::sum);
            }
        }
        return placement;
    }
}
