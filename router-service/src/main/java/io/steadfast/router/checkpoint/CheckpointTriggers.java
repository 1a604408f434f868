package io.steadfast.router.checkpoint;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;

/** Tells a host to start a checkpoint at its source tasks of a topology; throws if the host cannot be told. */
@FunctionalInterface
public interface CheckpointTriggers {

    void trigger(HostId host, TopologyId topology, long checkpointId);
}
