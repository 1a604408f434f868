package io.steadfast.router.checkpoint;

import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * What the checkpoint coordinators of every topology share.
 *
 * @param records      where checkpoints are recorded
 * @param failures     where failures are recorded (kept while the store is unreachable)
 * @param triggers     starts a checkpoint at a source host
 * @param completions  told of every checkpoint that completes, with the hosts of the topology
 * @param triggerCalls runs the calls that start a checkpoint at the source hosts, so that a slow or dead host does not
 *                     hold a coordinator (nor a recovery that stops it) until its call times out
 * @param clock        the time
 * @param outcomes     told how each checkpoint ended (the router's meters)
 */
public record CoordinatorContext(CheckpointRecords records, UnrecordedFailures failures, CheckpointTriggers triggers,
                                 CheckpointCompletions completions, Executor triggerCalls, Clock clock,
                                 CheckpointOutcomes outcomes) {

    /** Completions and outcomes told to no one; trigger calls made on the calling thread. */
    public CoordinatorContext(CheckpointRecords records, UnrecordedFailures failures, CheckpointTriggers triggers,
                              Clock clock) {
        this(records, failures, triggers, CheckpointCompletions.NONE, Runnable::run, clock, CheckpointOutcomes.NONE);
    }
}
