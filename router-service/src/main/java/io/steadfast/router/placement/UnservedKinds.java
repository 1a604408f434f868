package io.steadfast.router.placement;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskSpec;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The kinds of host a plan needs that none of some hosts is: what must be started before the plan can be placed. */
public final class UnservedKinds {

    private UnservedKinds() {
    }

    /** The kinds the tasks of {@code plan} need that none of {@code hosts} is, in {@link HostKind} order. */
    public static List<HostKind> of(ExecutionPlan plan, Collection<RegisteredHost> hosts) {
        Set<HostKind> needed = plan.tasks().stream().map(TaskSpec::hostKind)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(HostKind.class)));
        hosts.forEach(host -> needed.remove(host.kind()));
        return List.copyOf(needed);
    }
}
