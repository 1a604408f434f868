package io.steadfast.router.host;

import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/** The router's calls to a host's REST API. Every method throws {@link HostCallException} when the call fails. */
public interface HostClient {

    /** Asks the host to start its tasks of the plan. */
    default void deploy(RegisteredHost host, ExecutionPlan plan, TaskPlacement placement) {
        deploy(host, plan, placement, OptionalLong.empty());
    }

    /** Asks the host to start its tasks of the plan, each restored first from checkpoint {@code restoreFrom} if given. */
    void deploy(RegisteredHost host, ExecutionPlan plan, TaskPlacement placement, OptionalLong restoreFrom);

    /** Asks the host to start checkpoint {@code checkpointId} at its source tasks of a topology. */
    void triggerCheckpoint(RegisteredHost host, TopologyId topology, long checkpointId);

    /** Asks the host to start lost tasks of a running topology in place (local recovery); answers what it did. */
    InPlaceRecoveryResponse recoverInPlace(RegisteredHost host, InPlaceRecovery recovery);

    /**
     * Asks the host to fetch ahead the snapshots of tasks in a checkpoint, which it may be asked to recover in place
     * (their host is suspected), and their logged decisions from {@code peers}; the host answers at once and fetches
     * them in the background, then restores the tasks' operators from them and, with {@code placement} (where every
     * task would run after that recovery), prepares the tasks whole for a recovery with that placement.
     *
     * @param placement the placement the recovery would have, or null
     */
    void prefetchSnapshots(RegisteredHost host, TopologyId topology, long checkpointId, List<TaskId> tasks,
                           List<URI> peers, @Nullable TaskPlacement placement);

    /**
     * Asks the host to point its channels towards moved tasks at their new data endpoints, telling it the host behind
     * each of those endpoints ({@code hosts}: it names that host when its connection there drops, which has this
     * router check it at once instead of waiting for missed heartbeats), and the incarnation each moved task runs as
     * now: the host refuses frames of the earlier incarnations before it answers what it holds of their decisions.
     *
     * @return the last sequence number the host had sent on each channel redirected, and what it holds of the moved
     *         tasks' logged decisions
     */
    Redirected redirect(RegisteredHost host, TopologyId topology, Map<TaskId, String> newEndpoints,
                        Map<String, HostId> hosts, Map<TaskId, Integer> incarnations);

    /**
     * Tells the host what the live upstream tasks of the tasks it recovered had sent them, and what the peers hold of
     * their logged decisions.
     */
    void catchUpTargets(RegisteredHost host, TopologyId topology, CatchUp catchUp);

    /** Tells the host that a checkpoint of a topology completed (its output logs may drop what it covers). */
    void checkpointCompleted(RegisteredHost host, TopologyId topology, long checkpointId);

    /** Asks the host to stop its tasks of a topology. */
    void cancel(RegisteredHost host, TopologyId topology);

    /** One key's value of a task's keyed state; empty if the key has no value. */
    Optional<Object> queryKey(RegisteredHost host, TaskId task, String state, String key);

    /** Up to {@code limit} keys' values of a task's keyed state. */
    Map<String, Object> queryAll(RegisteredHost host, TaskId task, String state, int limit);

    /** The value of a task state (state of the whole task, not of a key), if the task holds one. */
    Optional<Object> queryTaskState(RegisteredHost host, TaskId task, String state);

    /**
     * Prepares the calls of a local recovery before the first one, without calling any host.
     *
     * @return the calls prepared, by the last part of their path (none by default)
     */
    default List<String> warmUp() {
        return List.of();
    }
}
