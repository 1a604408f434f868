package io.steadfast.runtime.recovery;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * How one task recovered in place starts: restored from its snapshot, with its channels resumed where they stood at
 * the snapshot's barrier, replaying its logged decisions, and watched until it catches up.
 *
 * @param snapshot         the task's snapshot
 * @param checkpointId     the checkpoint the snapshot belongs to; a source sends the barriers after it
 * @param known            encoded decisions from the snapshot's log offset on, known already (may be empty): replayed
 *                         as soon as the state is restored. Every run of a task's decisions that a receiver holds
 *                         from the snapshot's offset is a prefix of the task's log, so replaying it early changes
 *                         nothing of what the task regenerates
 * @param rest             completes with the encoded decisions that follow {@code known} in the log (empty if the
 *                         receivers hold no more): the task waits for them at the end of {@code known}
 * @param stateRestored    whether the task's operator holds the snapshot's state already (restored into it ahead)
 * @param requestedAtNanos when its host was asked to recover it ({@link System#nanoTime()}), from which its
 *                         catch-up is timed
 * @param liveInputs       its input channels whose upstream task kept running: it has caught up only once it has
 *                         taken in what they had sent when redirected to it (see {@link CatchUpWatch})
 */
public record InPlaceStart(OperatorSnapshot snapshot, long checkpointId, byte[] known, CompletableFuture<byte[]> rest,
                           boolean stateRestored, long requestedAtNanos, Set<ChannelId> liveInputs) {

    public InPlaceStart {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(known, "known");
        Objects.requireNonNull(rest, "rest");
        liveInputs = Set.copyOf(liveInputs);
    }
}
