package io.steadfast.protocol.host;

/**
 * A host's answer to {@code POST .../snapshot-prefetches}.
 *
 * @param started how many snapshots it started to fetch (those fetched or being fetched already not counted)
 */
public record SnapshotPrefetchResponse(int started) {
}
