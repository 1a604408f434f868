package io.steadfast.router.checkpoint;

import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;

/**
 * Told how each checkpoint ended, once, where its coordinator decides it: recorded complete in the store, or failed
 * (with the reason it is recorded under). Called on the coordinator's threads, some under its lock: implementations
 * only count and return at once.
 */
public interface CheckpointOutcomes {

    /** Tells no one. */
    CheckpointOutcomes NONE = new CheckpointOutcomes() {
        @Override
        public void completed(TopologyId topology, long checkpointId, Duration duration, long sizeBytes) {
        }

        @Override
        public void failed(TopologyId topology, long checkpointId, CheckpointFailureReason reason) {
        }
    };

    /**
     * @param duration  from its trigger until the store recorded it complete
     * @param sizeBytes the sizes of its tasks' stored snapshots, summed
     */
    void completed(TopologyId topology, long checkpointId, Duration duration, long sizeBytes);

    /** Failed for {@code reason}: a store that refused to record its start counts as STORE_UNAVAILABLE. */
    void failed(TopologyId topology, long checkpointId, CheckpointFailureReason reason);
}
