package io.steadfast.router.recovery;

import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.topology.TopologyRepository;
import java.time.Clock;

/**
 * What every recovery strategy reads and acts on: the deployed topologies, the hosts as the failure detector sees
 * them, the topologies' checkpointing (paused while they recover), the log of recoveries, and the time.
 */
record RecoveryContext(TopologyRepository topologies, HeartbeatFailureDetector detector,
                       CheckpointCoordinators coordinators, RecoveryLog log, Clock clock) {
}
