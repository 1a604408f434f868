package io.steadfast.protocol.registration;

import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.TaskReport;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of the router's {@code PUT /api/v1/hosts/{hostId}/heartbeat}.
 *
 * @param tasks       every task on the host (none if left out)
 * @param deployments every topology deployed on the host, with its epoch (none if left out)
 * @param session     the session the host registered with (absent if it named none)
 */
public record Heartbeat(@Nullable List<TaskReport> tasks, @Nullable List<HostDeployment> deployments,
                        @Nullable String session) {
}
