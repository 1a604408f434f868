package io.steadfast.router.checkpoint;

import org.jspecify.annotations.Nullable;

/**
 * How a topology is being checkpointed now.
 *
 * @param state where its checkpointing is
 * @param reason why it is not ACTIVE, or null
 * @param settings the settings in force: the router's defaults with the topology's own {@code checkpointing}
 * @param skipped due checkpoints skipped in this deployment (the maximum was pending, or the topology was not
 *                running)
 * @param unrecordedFailures failed checkpoints the router keeps until the checkpoint store answers again
 */
public record CheckpointingStatus(State state, @Nullable String reason, CheckpointSettings settings, long skipped,
                                  int unrecordedFailures) {

    /** Where a topology's checkpointing is. */
    public enum State {
        /** Checkpoints are triggered at the interval. */
        ACTIVE,
        /** A host of the topology is not LIVE or a task FAILED: due checkpoints are skipped until it runs again. */
        SKIPPING,
        /** The topology is being recovered, or its recovery failed: no checkpoints until one succeeds. */
        PAUSED,
        /** Not started yet: the router could not yet read the topology's earlier checkpoint ids from the store. */
        NOT_STARTED
    }
}
