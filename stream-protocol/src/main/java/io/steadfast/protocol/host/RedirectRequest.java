package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.constraints.NotEmpty;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Body of a host's {@code POST .../redirects}.
 *
 * @param endpoints    the new data-plane endpoint of each moved task
 * @param hosts        the host behind each of those endpoints (optional): the host then names it when its data-plane
 *                     connection there drops, which has the router check it at once
 * @param incarnations the incarnation each moved task runs as now (optional): the host refuses frames of the earlier
 *                     ones from then on
 */
public record RedirectRequest(@NotEmpty Map<TaskId, String> endpoints, @Nullable Map<String, HostId> hosts,
                              @Nullable Map<TaskId, Integer> incarnations) {
}
