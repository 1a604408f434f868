package io.steadfast.model;

/**
 * Predicts the delay of one task from its load, treating the task as a single-server queue: one mailbox thread
 * serves its records one at a time, in arrival order.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface QueueingModel {

    /** A short name for reports: {@code "M/M/1"}, {@code "G/G/1 (Kingman)"}. */
    String name();

    /** The task's utilisation, wait, service time and stability under this model. */
    TaskDelay delay(TaskLoad load);
}
