package io.steadfast.runtime.codec;

import io.steadfast.api.Event;

/** Receives the records of a decoded batch, in order, on the decoding thread. */
public interface RecordVisitor {

    void onEvent(Event<Object> event);

    void onWatermark(long watermark);

    /** A checkpoint barrier; visitors that do not take part in checkpoints ignore it. */
    default void onBarrier(long checkpointId) {
    }
}
