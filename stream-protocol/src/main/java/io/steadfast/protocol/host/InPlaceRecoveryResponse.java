package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.TaskId;
import java.util.List;

/**
 * A host's answer to {@code POST .../recoveries}.
 *
 * @param tasks          the tasks started
 * @param decisionBytes  the logged decisions they replay, in bytes
 * @param snapshotMillis fetching their snapshots
 * @param decisionMillis how long after the snapshots their decisions from the live hosts were in (collected while
 *                       the snapshots were fetched and the tasks started)
 * @param startMillis    creating and starting them once the snapshots were in (each restores its state on its own
 *                       thread, and takes input once the decisions are in)
 */
public record InPlaceRecoveryResponse(List<TaskId> tasks, long decisionBytes, long snapshotMillis, long decisionMillis,
                                      long startMillis) {
}
