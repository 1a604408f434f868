package io.steadfast.cluster.client;

import io.steadfast.runtime.topology.TopologyId;
import java.util.List;

/** The router's answer to {@code POST /api/v1/topologies}. */
public record DeploymentView(TopologyId id, String status, List<TaskPlacementView> tasks) {

    public DeploymentView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }
}
