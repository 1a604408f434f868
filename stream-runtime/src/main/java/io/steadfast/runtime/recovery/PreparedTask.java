package io.steadfast.runtime.recovery;

import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.StreamTask;
import java.util.Map;

/**
 * A task made whole ahead of its recovery in place, neither connected nor started (see
 * {@link InPlaceRecovery#prepare}).
 *
 * @param task          the task, its operator restored from the snapshot
 * @param log           its decision log, at the snapshot's offset
 * @param senders       its output channels, to connect
 * @param placement     the placement its output was wired for (which receivers run on this host)
 * @param logsForwarded the decision logs of this host's other tasks that its frames forward for receivers
 *                      elsewhere, as found when it was made (a task absent then maps to null): a recovery may take it
 *                      only while each is still the same
 */
record PreparedTask(StreamTask task, DecisionLog log, Map<ChannelId, PendingFrameSender> senders,
                    TaskPlacement placement, Map<TaskId, DecisionLog> logsForwarded) {
}
