package io.steadfast.runtime.task;

import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;

/**
 * Runs one operator's user code inside a task: a source or a keyed processor. Task thread only. The test
 * driver in stream-testkit uses the same drivers, so PE tests run the production execution path.
 */
public sealed interface OperatorDriver permits KeyedProcessorDriver, SourceDriver {

    /** Writes everything the operator needs to resume: state, timers, source position. */
    default void snapshot(ByteArrayCodecOutput out) {
        prepareSnapshot().writeTo(out);
    }

    /**
     * Detaches the state as it is now, cheaply, on the task thread; the returned snapshot is encoded later on
     * any thread while the task goes on processing (asynchronous snapshots).
     */
    PreparedSnapshot prepareSnapshot();

    /** State detached from a live operator, waiting to be encoded. */
    @FunctionalInterface
    interface PreparedSnapshot {

        /** Encodes the detached state; any thread, once. */
        void writeTo(ByteArrayCodecOutput out);
    }

    /** Replaces the operator's state with a snapshot written by {@link #snapshot}. */
    void restore(ByteArrayCodecInput in);
}
