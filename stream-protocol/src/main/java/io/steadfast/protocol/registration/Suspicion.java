package io.steadfast.protocol.registration;

import io.steadfast.runtime.plan.HostId;
import jakarta.validation.constraints.NotNull;

/**
 * Body of the router's {@code POST /api/v1/hosts/{hostId}/suspicions}.
 *
 * @param reporter the host whose data-plane connection to the suspected host dropped
 */
public record Suspicion(@NotNull HostId reporter) {
}
