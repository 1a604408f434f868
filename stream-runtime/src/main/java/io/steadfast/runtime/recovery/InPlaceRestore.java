package io.steadfast.runtime.recovery;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What lost tasks are restored from in a local recovery.
 *
 * @param checkpointId     the completed checkpoint the snapshots belong to
 * @param snapshots        each lost task's snapshot of that checkpoint
 * @param decisions        the lost tasks' logged decisions, those collected and those known ahead
 * @param latestTriggered  the latest checkpoint the coordinator has triggered: recovered sources send the
 *                         barriers up to it that they missed, since the tasks downstream align on every id
 * @param recovering       every task of the topology recovered in this round, on any host: input from them
 *                         needs no catch-up target (see {@link CatchUpWatch})
 * @param requestedAtNanos when this host was asked to recover them ({@link System#nanoTime()}), from which their
 *                         catch-up is timed
 * @param preloads         per output channel of a recovered task, what it had logged on that channel after its
 *                         snapshot's barrier, as shipped to the checkpoint-service: loaded into the channel's output
 *                         log so that a receiver recovered with it is replayed to at once (the task still re-executes
 *                         from the snapshot; what it regenerates within the preloaded range is not sent again)
 */
public record InPlaceRestore(long checkpointId, Map<TaskId, OperatorSnapshot> snapshots, Decisions decisions,
                             long latestTriggered, Set<TaskId> recovering, long requestedAtNanos,
                             Map<ChannelId, List<LogSegment>> preloads) {

    /**
     * The logged decisions lost tasks replay.
     *
     * @param collected  per lost task, its logged decisions from its snapshot's log offset on, the longest run any
     *                   live host held (none for a task whose decisions nobody has seen); may complete after the
     *                   tasks were created: each restores its state meanwhile, replays those known ahead, and goes no
     *                   further before they are in (a failure fails the tasks)
     * @param knownAhead per lost task, the first of those decisions known already (fetched from the live hosts while
     *                   the failure was being confirmed; none for a task not in it): replayed at once, the rest once
     *                   {@code collected} completes. Each must begin the task's run in {@code collected}, or be
     *                   begun by it (a host that held more may be gone since)
     */
    public record Decisions(CompletableFuture<Map<TaskId, byte[]>> collected, Map<TaskId, byte[]> knownAhead) {

        public Decisions {
            Objects.requireNonNull(collected, "collected");
            knownAhead = Map.copyOf(Objects.requireNonNull(knownAhead, "knownAhead"));
        }

        /** Decisions collected already, none known ahead. */
        public static Decisions collected(Map<TaskId, byte[]> decisions) {
            return new Decisions(CompletableFuture.completedFuture(Map.copyOf(decisions)), Map.of());
        }
    }

    public InPlaceRestore {
        snapshots = Map.copyOf(Objects.requireNonNull(snapshots, "snapshots"));
        Objects.requireNonNull(decisions, "decisions");
        recovering = Set.copyOf(Objects.requireNonNull(recovering, "recovering"));
        preloads = Map.copyOf(Objects.requireNonNull(preloads, "preloads"));
    }

    /** A restore whose decisions are collected already. */
    public InPlaceRestore(long checkpointId, Map<TaskId, OperatorSnapshot> snapshots,
                          Map<TaskId, byte[]> decisions, long latestTriggered, Set<TaskId> recovering,
                          long requestedAtNanos, Map<ChannelId, List<LogSegment>> preloads) {
        this(checkpointId, snapshots, Decisions.collected(decisions), latestTriggered, recovering, requestedAtNanos,
                preloads);
    }

    /** A restore without output logs to preload. */
    public InPlaceRestore(long checkpointId, Map<TaskId, OperatorSnapshot> snapshots,
                          Map<TaskId, byte[]> decisions, long latestTriggered, Set<TaskId> recovering,
                          long requestedAtNanos) {
        this(checkpointId, snapshots, decisions, latestTriggered, recovering, requestedAtNanos, Map.of());
    }

    /** A restore of the snapshots' tasks alone, asked for now. */
    public InPlaceRestore(long checkpointId, Map<TaskId, OperatorSnapshot> snapshots,
                          Map<TaskId, byte[]> decisions, long latestTriggered) {
        this(checkpointId, snapshots, decisions, latestTriggered, snapshots.keySet(), System.nanoTime());
    }
}
