package io.steadfast.router.failure;

import java.time.Instant;

/** When this router last ran again after a pause of its own process; see {@link OwnPauseWatch}. */
@FunctionalInterface
public interface OwnPauses {

    /** For a detector that judges hosts by the clock alone. */
    OwnPauses NONE = () -> Instant.MIN;

    /** The moment this router last resumed from a pause of its own, or {@link Instant#MIN} if it never paused. */
    Instant resumedAt();
}
