package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Body of a host's {@code POST .../catch-up-targets}.
 *
 * @param heads         what live upstream tasks had sent on each channel to a task recovered there
 * @param recovery      the router's id of the recovery, as in its recovery request (optional)
 * @param heldDecisions what each peer that pointed its channels away from the lost tasks holds of their logged
 *                      decisions, as it answered {@code POST .../redirects}, by the peer's base URL (optional)
 */
public record CatchUpTargets(@NotNull Map<ChannelId, Long> heads, @Nullable String recovery,
                             @Nullable Map<URI, Map<TaskId, DecisionSpan>> heldDecisions) {
}
