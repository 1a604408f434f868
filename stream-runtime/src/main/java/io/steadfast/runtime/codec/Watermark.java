package io.steadfast.runtime.codec;

/** A watermark record: no later event on this channel has an event time at or before {@code timestamp}. */
public record Watermark(long timestamp) {
}
