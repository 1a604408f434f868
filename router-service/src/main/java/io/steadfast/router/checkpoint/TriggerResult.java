package io.steadfast.router.checkpoint;

/** What came of a request to trigger a checkpoint now. */
public sealed interface TriggerResult {

    /** The checkpoint was started. */
    record Triggered(long checkpointId) implements TriggerResult {
    }

    /** No checkpoint was started, for {@code reason} (what stands in the way and what to do). */
    record Refused(String reason) implements TriggerResult {
    }
}
