package io.steadfast.runtime.codec;

import io.steadfast.api.Event;

/** Receives the records of a decoded batch, in order, on the decoding thread. */
public interface RecordVisitor {

    void onEvent(Event<Object> event);

    void onWatermark(long watermark);
}
