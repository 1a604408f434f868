package io.steadfast.router.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Set;

/**
 * Told of every checkpoint that completes, to pass it on to the topology's hosts (their output logs drop what the
 * checkpoint covers). Called on the coordinator's thread, under its lock: implementations hand the work to another
 * thread and return at once.
 */
@FunctionalInterface
public interface CheckpointCompletions {

    /** Tells no one. */
    CheckpointCompletions NONE = (topology, checkpointId, hosts) -> { };

    void completed(TopologyId topology, long checkpointId, Set<HostId> hosts);
}
