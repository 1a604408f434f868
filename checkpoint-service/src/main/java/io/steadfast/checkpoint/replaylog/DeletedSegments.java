package io.steadfast.checkpoint.replaylog;

/**
 * What a truncation or deletion removed.
 *
 * @param segments how many segments
 * @param bytes    their frame bytes, as counted just before they were deleted
 */
public record DeletedSegments(long segments, long bytes) {
}
