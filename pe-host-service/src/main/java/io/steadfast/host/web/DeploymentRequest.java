package io.steadfast.host.web;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/v1/deployments}: the whole plan and where each of its tasks runs.
 *
 * @param plan the execution plan, as the router expanded it
 * @param placement where every task of the plan runs
 * @param restore the checkpoint to restore this host's tasks from before they start, or null to start afresh
 */
public record DeploymentRequest(@NotNull ExecutionPlan plan, @NotNull @Valid Placement placement,
                                @Nullable @Valid Restore restore) {

    /**
     * A restore point.
     *
     * @param checkpointId a completed checkpoint of the topology
     */
    public record Restore(@NotNull @jakarta.validation.constraints.Min(1) Long checkpointId) {
    }

    /**
     * The placement in JSON form.
     *
     * @param hosts host id of each task id ({@code topology/operator#subtask})
     * @param endpoints data-plane endpoint of each host id
     * @param incarnations incarnation of each task id recovered at least once (optional; 0 for the others)
     */
    public record Placement(@NotNull Map<String, String> hosts, @NotNull Map<String, String> endpoints,
                            @Nullable Map<String, Integer> incarnations) {

        /** The JSON form of {@code placement}, as a client of this host sends it. */
        public static Placement of(TaskPlacement placement) {
            Map<String, String> hosts = new TreeMap<>();
            placement.hosts().forEach((task, host) -> hosts.put(task.toString(), host.value()));
            Map<String, String> endpoints = new TreeMap<>();
            placement.endpoints().forEach((host, endpoint) -> endpoints.put(host.value(), endpoint));
            Map<String, Integer> incarnations = new TreeMap<>();
            placement.incarnations().forEach((task, incarnation) -> incarnations.put(task.toString(), incarnation));
            return new Placement(hosts, endpoints, incarnations);
        }

        /** @throws IllegalArgumentException if a task id is malformed, a host has no endpoint or an incarnation < 0 */
        TaskPlacement toTaskPlacement() {
            Map<TaskId, HostId> taskHosts = new HashMap<>();
            hosts.forEach((task, host) -> taskHosts.put(TaskId.parse(task), new HostId(host)));
            Map<HostId, String> hostEndpoints = new HashMap<>();
            endpoints.forEach((host, endpoint) -> hostEndpoints.put(new HostId(host), endpoint));
            Map<TaskId, Integer> taskIncarnations = new HashMap<>();
            if (incarnations != null) {
                incarnations.forEach((task, incarnation) -> taskIncarnations.put(TaskId.parse(task), incarnation));
            }
            return new TaskPlacement(taskHosts, hostEndpoints, taskIncarnations);
        }
    }
}
