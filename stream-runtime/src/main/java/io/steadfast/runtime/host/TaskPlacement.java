package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.Map;
import java.util.Objects;

/**
 * Where every task of a plan runs: its host and that host's data-plane endpoint.
 *
 * @param hosts the host of each task
 * @param endpoints the data-plane endpoint of each host
 */
public record TaskPlacement(Map<TaskId, HostId> hosts, Map<HostId, String> endpoints) {

    public TaskPlacement {
        hosts = Map.copyOf(hosts);
        endpoints = Map.copyOf(endpoints);
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
}
