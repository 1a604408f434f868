package io.steadfast.protocol.store;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Body of the checkpoint-service's {@code POST /api/v1/checkpoints/{topology}}: the router records a checkpoint it
 * triggered, PENDING until every one of its tasks acknowledged it. The members are nullable as read: the service
 * answers a missing one with a problem that names it.
 *
 * @param checkpointId the checkpoint's id (required)
 * @param tasks        every task that must acknowledge it, all of the path's topology (required, not empty)
 * @param incarnations the incarnation of each task whose snapshot it takes where that is not 0: the service refuses
 *                     the snapshots of other copies of the task (none if left out)
 * @param triggeredAt  when the router triggered it (when the service got the request if left out)
 */
public record CheckpointCreation(@Nullable CheckpointId checkpointId, @Nullable List<TaskId> tasks,
                                 @Nullable Map<TaskId, Integer> incarnations, @Nullable Instant triggeredAt) {
}
