package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import org.jspecify.annotations.Nullable;

/** One task of a deployed topology, from {@code GET /api/v1/topologies/{id}}. */
public record TaskView(String task, @Nullable HostId host, String status, long recordsIn, long recordsOut) {

    public static final String FINISHED = "FINISHED";
    public static final String FAILED = "FAILED";

    public boolean isFinished() {
        return FINISHED.equals(status);
    }

    public boolean isFailed() {
        return FAILED.equals(status);
    }

    /** The operator this task is a subtask of. */
    public OperatorId operator() {
        return TaskId.parse(task).operator();
    }
}
