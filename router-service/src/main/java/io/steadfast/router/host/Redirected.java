package io.steadfast.router.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import java.util.Map;

/**
 * A host's answer when it pointed its channels at moved tasks.
 *
 * @param heads         the last sequence number it had sent on each channel redirected
 * @param heldDecisions the spans of the earliest runs it holds of the moved tasks' logged decisions, by task (a task
 *                      it holds nothing of left out): final, since the tasks' old host is dead
 */
public record Redirected(Map<ChannelId, Long> heads, Map<TaskId, DecisionSpan> heldDecisions) {

    public Redirected {
        heads = Map.copyOf(heads);
        heldDecisions = Map.copyOf(heldDecisions);
    }
}
