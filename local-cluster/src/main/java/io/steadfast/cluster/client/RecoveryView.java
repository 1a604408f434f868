package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One global recovery as the router lists it in {@code GET /api/v1/recoveries}.
 *
 * @param tasks the tasks that ran on the failed host
 * @param restoredFrom the checkpoint every task restored from, or null if none had completed (started over)
 * @param detectionMillis heartbeat silence until the failure was detected
 * @param restoreMillis detection until the redeployment was answered, or null
 * @param catchUpMillis redeployment until the sinks caught up, or null
 * @param status RECOVERING, RECOVERED, FAILED (retried) or ABANDONED (it can never finish: the router restarted
 *               before it redeployed, a later recovery took over, or the topology was cancelled)
 * @param detectionCause what made the router declare the host DEAD: HEARTBEAT_TIMEOUT or DATA_PLANE_DISCONNECT
 */
public record RecoveryView(long id, TopologyId topology, HostId failedHost, List<String> tasks, int epoch,
        @Nullable Long restoredFrom, @Nullable Instant detectedAt, long detectionMillis, @Nullable Long restoreMillis,
        @Nullable Long catchUpMillis, String status, @Nullable String failureReason, @Nullable String message,
        @Nullable String detectionCause) {

    public static final String RECOVERED = "RECOVERED";
    public static final String FAILED = "FAILED";
    public static final String ABANDONED = "ABANDONED";

    public RecoveryView {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    public boolean isRecovered() {
        return RECOVERED.equals(status);
    }

    public boolean isFailed() {
        return FAILED.equals(status);
    }

    public boolean isAbandoned() {
        return ABANDONED.equals(status);
    }
}
