package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.RecoveryView;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers the status of each recovery seen so far, so that a progress report can name each recovery when it
 * first appears and again whenever its status changes. Not thread-safe: one reporting thread owns it.
 */
public final class RecoveryChanges {

    private final Map<Long, String> reported = new HashMap<>();

    /** The recoveries among {@code recoveries} that are new or whose status changed since the last call, oldest first. */
    public List<RecoveryView> since(List<RecoveryView> recoveries) {
        return recoveries.stream().sorted(Comparator.comparingLong(RecoveryView::id))
                .filter(recovery -> !recovery.outcome().status().equals(
                        reported.put(recovery.id(), recovery.outcome().status())))
                .toList();
    }
}
