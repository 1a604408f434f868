package io.steadfast.router.placement;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a placement could not do as it should, for people: the versions of an N-version subtask that share a host
 * (there were fewer hosts than versions when they were placed, or a recovery moved one next to another), so that one
 * host failure takes several of them at once and the vote loses more than one voice. Derived from the plan and the
 * placement alone, so it holds for the placement as it is now, after any recovery.
 */
public final class PlacementWarnings {

    private PlacementWarnings() {
    }

    /** One warning per host that runs two or more versions of one subtask, in plan order; empty if none does. */
    public static List<String> of(ExecutionPlan plan, Map<TaskId, HostId> placement) {
        Map<VersionedSubtask, Map<HostId, List<TaskId>>> versions = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            HostId host = placement.get(task.id());
            VersionedSubtask.of(task.id()).filter(subtask -> host != null).ifPresent(subtask -> versions
                    .computeIfAbsent(subtask, s -> new TreeMap<>()).computeIfAbsent(host, h -> new ArrayList<>())
                    .add(task.id()));
        }
        List<String> warnings = new ArrayList<>();
        versions.forEach((subtask, byHost) -> byHost.forEach((host, tasks) -> {
            if (tasks.size() > 1) {
                warnings.add("Versions " + tasks.stream().map(task -> task.operator() + "#" + task.subtask())
                        .collect(Collectors.joining(", ")) + " of " + subtask + " share host " + host + ", so one"
                        + " failure of it takes " + tasks.size() + " versions at once (there were fewer LIVE PE hosts"
                        + " than versions to place them on). Start more pe-host-services to give every version a host"
                        + " of its own");
            }
        }));
        return warnings;
    }
}
