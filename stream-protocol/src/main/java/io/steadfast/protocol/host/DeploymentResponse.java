package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;

/**
 * A host's answer to {@code POST /api/v1/deployments}.
 *
 * @param topology the topology deployed
 * @param tasks    the tasks started on the host
 */
public record DeploymentResponse(TopologyId topology, List<TaskId> tasks) {
}
