package io.steadfast.runtime.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.DeterminantLog;
import io.steadfast.runtime.task.StreamTask;
import java.util.Map;

/**
 * A task made whole ahead of its recovery in place, neither connected nor started (see
 * {@link HostRuntime#prepareRecovery}).
 *
 * @param task          the task, its operator restored from the snapshot
 * @param log           its determinant log, at the snapshot's offset
 * @param senders       its output channels, to connect
 * @param placement     the placement its output was wired for (which receivers run on this host)
 * @param logsForwarded the determinant logs of this host's other tasks that its frames forward for receivers
 *                      elsewhere, as found when it was made (a task absent then maps to null): a recovery may take it
 *                      only while each is still the same
 */
record PreparedTask(StreamTask task, DeterminantLog log, Map<ChannelId, PendingFrameSender> senders,
                    TaskPlacement placement, Map<TaskId, DeterminantLog> logsForwarded) {
}
