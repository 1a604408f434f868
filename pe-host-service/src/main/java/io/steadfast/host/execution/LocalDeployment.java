package io.steadfast.host.execution;

import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.List;

/**
 * What this host runs of one topology.
 *
 * @param epoch     the plan's epoch
 * @param tasks     its tasks here
 * @param load      the tasks and channels of the topology here, counted against the host's limits
 * @param changedAt when tasks of the topology were last deployed or recovered in place here
 */
record LocalDeployment(int epoch, List<TaskId> tasks, HostLoad load, Instant changedAt) {
}
