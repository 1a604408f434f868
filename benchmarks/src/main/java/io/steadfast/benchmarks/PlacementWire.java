package io.steadfast.benchmarks;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.HashMap;
import java.util.Map;

/** A {@link TaskPlacement} as plain string maps, for the one-line JSON the benchmark sends its child host. */
record PlacementWire(Map<String, String> hosts, Map<String, String> endpoints) {

    static PlacementWire of(TaskPlacement placement) {
        Map<String, String> hosts = new HashMap<>();
        placement.hosts().forEach((task, host) -> hosts.put(task.toString(), host.value()));
        Map<String, String> endpoints = new HashMap<>();
        placement.endpoints().forEach((host, endpoint) -> endpoints.put(host.value(), endpoint));
        return new PlacementWire(hosts, endpoints);
    }

    TaskPlacement toPlacement() {
        Map<TaskId, HostId> taskHosts = new HashMap<>();
        hosts.forEach((task, host) -> taskHosts.put(TaskId.parse(task), new HostId(host)));
        Map<HostId, String> hostEndpoints = new HashMap<>();
        endpoints.forEach((host, endpoint) -> hostEndpoints.put(new HostId(host), endpoint));
        return new TaskPlacement(taskHosts, hostEndpoints);
    }
}
