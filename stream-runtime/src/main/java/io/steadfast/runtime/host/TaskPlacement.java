package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.Map;
import java.util.Objects;

/**
 * Where every task of a plan runs: its host and that host's data-plane endpoint, and which incarnation of it runs
 * there. A task's incarnation rises with each recovery that restarts it; receivers, the router and the
 * checkpoint-service refuse what comes from a superseded one (a host that was frozen and resumed, still running the
 * task the router moved elsewhere meanwhile).
 *
 * @param hosts the host of each task
 * @param endpoints the data-plane endpoint of each host
 * @param incarnations the incarnation of each task that has been recovered at least once; 0 for the others
 */
public record TaskPlacement(Map<TaskId, HostId> hosts, Map<HostId, String> endpoints,
                            Map<TaskId, Integer> incarnations) {

    /** A placement of first incarnations: nothing recovered yet. */
    public TaskPlacement(Map<TaskId, HostId> hosts, Map<HostId, String> endpoints) {
        this(hosts, endpoints, Map.of());
    }

    public TaskPlacement {
        hosts = Map.copyOf(hosts);
        endpoints = Map.copyOf(endpoints);
        incarnations = incarnations == null ? Map.of() : Map.copyOf(incarnations);
        incarnations.forEach((task, incarnation) -> {
            if (incarnation < 0) {
                throw new IllegalArgumentException("incarnation of task " + task + " must be >= 0, was " + incarnation);
            }
        });
        for (Map.Entry<TaskId, HostId> entry : hosts.entrySet()) {
            if (!endpoints.containsKey(entry.getValue())) {
                throw new IllegalArgumentException("task " + entry.getKey() + " is placed on host "
                        + entry.getValue() + ", which has no data-plane endpoint");
            }
        }
    }

    public HostId hostOf(TaskId task) {
        return Objects.requireNonNull(hosts.get(task), () -> "task " + task + " is not placed");
    }

    public String endpointOf(TaskId task) {
        return endpoints.get(hostOf(task));
    }

    /** The incarnation of {@code task} that runs where this placement says: 0 until it is first recovered. */
    public int incarnationOf(TaskId task) {
        return incarnations.getOrDefault(task, 0);
    }
}
