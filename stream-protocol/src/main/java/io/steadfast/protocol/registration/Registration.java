package io.steadfast.protocol.registration;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * Body of the router's {@code POST /api/v1/hosts}: a host registers.
 *
 * @param hostId       the host's id
 * @param controlUrl   base URL of the host's REST API
 * @param dataEndpoint the host's data-plane endpoint
 * @param session      the host process's current session (optional): a new one each time it rejoins empty
 * @param kind         what the host runs: {@code PE} (a pe-host-service) or {@code VOTER} (a voter-service); a body
 *                     without it (from a host older than voter hosts) means {@code PE}
 * @param instance     what tells this incarnation of the host from an earlier one with the same id (on Kubernetes the
 *                     pod's uid), or null
 */
public record Registration(@NotNull HostId hostId, @NotNull URI controlUrl, @NotBlank String dataEndpoint,
                           @Nullable String session, HostKind kind, @Nullable String instance) {

    public Registration {
        kind = kind == null ? HostKind.PE : kind;
    }
}
