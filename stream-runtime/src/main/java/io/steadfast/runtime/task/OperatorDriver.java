package io.steadfast.runtime.task;

import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;

/**
 * Runs one operator's user code inside a task: a source or a keyed processor. Task thread only. The test
 * driver in stream-testkit uses the same drivers, so PE tests run the production execution path.
 */
public sealed interface OperatorDriver permits KeyedProcessorDriver, SourceDriver {

    /** Writes everything the operator needs to resume: state, timers, source position. */
    void snapshot(ByteArrayCodecOutput out);

    /** Replaces the operator's state with a snapshot written by {@link #snapshot}. */
    void restore(ByteArrayCodecInput in);
}
