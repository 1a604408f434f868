package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import java.util.Map;

/**
 * A host's answer to {@code POST .../redirects}.
 *
 * @param channels      how many of the host's channels now point at a moved task
 * @param heads         the last sequence number sent on each of them: what the moved task must take in to have caught
 *                      up (passed on with {@code POST .../catch-up-targets})
 * @param heldDecisions the span of the earliest run the host holds of each moved task's logged decisions (none for a
 *                      task it holds nothing of; passed on with the catch-up targets)
 */
public record RedirectResponse(int channels, Map<ChannelId, Long> heads, Map<TaskId, DecisionSpan> heldDecisions) {
}
