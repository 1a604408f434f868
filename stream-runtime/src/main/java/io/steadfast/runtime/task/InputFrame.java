package io.steadfast.runtime.task;

import io.steadfast.runtime.plan.ChannelId;

/**
 * A frame of records that arrived on one input channel of a task. {@link #consumed()} must be called once the
 * task has processed it: that releases the sender's credit.
 */
public interface InputFrame {

    ChannelId channel();

    byte[] payload();

    /** Records in the payload. */
    int records();

    /** Records at the start of the payload that were delivered before and must be skipped. */
    int skip();

    void consumed();

    /**
     * When the frame reached this task's host, by the wall clock ({@link System#currentTimeMillis()}): a
     * processing-time timer due later does not fire before the task has taken this frame.
     */
    long arrivedMillis();

    /**
     * When the frame reached this task's host, by {@link System#nanoTime()}: the start of the time its records
     * spend in the task ({@link TaskMetrics#residenceNanos()}).
     */
    long arrivedNanos();
}
