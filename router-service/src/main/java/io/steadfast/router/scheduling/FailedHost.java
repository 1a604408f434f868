package io.steadfast.router.scheduling;

import io.steadfast.router.failure.DetectionCause;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A host declared DEAD, as it was registered when it failed.
 *
 * @param id the host id (on Kubernetes the pod name)
 * @param kind PE host or voter
 * @param instance the failed incarnation (on Kubernetes the pod uid), or null if the host named none: a replacement
 *                 under the same id is a different instance and is never taken for the failed one
 * @param cause what made the router declare it DEAD
 */
public record FailedHost(HostId id, HostKind kind, @Nullable String instance, DetectionCause cause) {

    public FailedHost {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cause, "cause");
    }
}
