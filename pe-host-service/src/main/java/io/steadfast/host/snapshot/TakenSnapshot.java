package io.steadfast.host.snapshot;

/**
 * A task's snapshot as one copy of the task took it, to be stored: the checkpoint-service stores it only if the copy
 * is the incarnation of the task the checkpoint was triggered for.
 *
 * @param incarnation the incarnation of the copy of the task that took it
 * @param bytes       the encoded snapshot
 */
public record TakenSnapshot(int incarnation, byte[] bytes) {
}
