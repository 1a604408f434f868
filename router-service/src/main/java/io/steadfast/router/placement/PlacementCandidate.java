package io.steadfast.router.placement;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.util.Objects;

/**
 * A host a {@link TaskPlacer} may put tasks on.
 *
 * @param host  the host
 * @param kind  what it runs: only tasks that need this kind of host go there
 * @param tasks how many tasks it runs already
 */
public record PlacementCandidate(HostId host, HostKind kind, int tasks) {

    public PlacementCandidate {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(kind, "kind");
        if (tasks < 0) {
            throw new IllegalArgumentException("host " + host + " runs " + tasks + " tasks; must be >= 0");
        }
    }
}
