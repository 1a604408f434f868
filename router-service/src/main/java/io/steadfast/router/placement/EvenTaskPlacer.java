package io.steadfast.router.placement;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.OperatorId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Spreads each operator's subtasks round-robin over the hosts of the kind they need (vote tasks on voters, the rest on
 * PE hosts), least loaded first (ties by host id): for every operator in plan order those hosts are sorted by their
 * load so far, subtask {@code i} goes to the {@code i mod n}-th, and the loads are updated. So the subtasks of one
 * operator land on distinct hosts where possible and the total load stays within one task of even. A version of an
 * N-version operator skips, from there, the hosts that already run another version of the same subtask, so that one
 * host failure takes at most one version of it; with fewer hosts than versions some must share
 * ({@link PlacementWarnings} says which). Deterministic.
 */
public final class EvenTaskPlacer implements TaskPlacer {

    @Override
    public Map<TaskId, HostId> place(ExecutionPlan plan, Collection<PlacementCandidate> candidates) {
        Map<HostId, Integer> load = new HashMap<>();
        Map<HostKind, List<HostId>> byKind = new EnumMap<>(HostKind.class);
        candidates.forEach(candidate -> {
            load.put(candidate.host(), candidate.tasks());
            byKind.computeIfAbsent(candidate.kind(), kind -> new ArrayList<>()).add(candidate.host());
        });
        Comparator<HostId> leastLoaded = Comparator.<HostId>comparingInt(load::get).thenComparing(HostId::value);
        Map<OperatorId, List<TaskSpec>> byOperator = new LinkedHashMap<>();
        plan.tasks().forEach(task -> byOperator.computeIfAbsent(task.id().operator(), o -> new ArrayList<>()).add(task));
        Map<TaskId, HostId> placement = new LinkedHashMap<>();
        Map<VersionedSubtask, Set<HostId>> versionHosts = new HashMap<>();
        for (List<TaskSpec> subtasks : byOperator.values()) {
            HostKind kind = subtasks.get(0).hostKind();
            List<HostId> hosts = new ArrayList<>(byKind.getOrDefault(kind, List.of()));
            if (hosts.isEmpty()) {
                throw new IllegalArgumentException("no " + kind + " host to place " + subtasks.get(0).id().operator()
                        + " of topology '" + plan.topology() + "' on; start a " + kind.service());
            }
            hosts.sort(leastLoaded);
            for (int i = 0; i < subtasks.size(); i++) {
                TaskId task = subtasks.get(i).id();
                Optional<VersionedSubtask> versioned = VersionedSubtask.of(task);
                HostId host = pick(hosts, i, versioned.map(subtask -> versionHosts.getOrDefault(subtask, Set.of()))
                        .orElse(Set.of()));
                placement.put(task, host);
                load.merge(host, 1, Integer::sum);
                versioned.ifPresent(subtask -> versionHosts.computeIfAbsent(subtask, s -> new HashSet<>()).add(host));
            }
        }
        return placement;
    }

    /** The {@code i mod n}-th host, or the first one after it not in {@code avoid}, if any is not. */
    private static HostId pick(List<HostId> hosts, int i, Set<HostId> avoid) {
        for (int step = 0; step < hosts.size(); step++) {
            HostId host = hosts.get((i + step) % hosts.size());
            if (!avoid.contains(host)) {
                return host;
            }
        }
        return hosts.get(i % hosts.size());
    }
}
