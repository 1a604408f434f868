package io.steadfast.model;

import java.util.Objects;

/**
 * What it costs to restore a task's state from the latest completed checkpoint: a fixed latency to fetch its
 * snapshot, then its bytes at a bandwidth.
 *
 * @param bytesPerSecond the bandwidth of one fetch
 * @param fetchSeconds the fixed latency of one task's fetch (request, lookup, first byte)
 * @param order whether fetches run one at a time or one at a time per host, hosts in parallel
 */
public record RestoreCost(double bytesPerSecond, double fetchSeconds, RestoreOrder order) {

    public RestoreCost {
        Finite.positive("RestoreCost", "bytesPerSecond", bytesPerSecond);
        Finite.atLeastZero("RestoreCost", "fetchSeconds", fetchSeconds);
        Objects.requireNonNull(order, "order");
    }

    /** The fetch of one task's state: fetch + bytes / bandwidth. */
    public double seconds(long stateBytes) {
        return fetchSeconds + stateBytes / bytesPerSecond;
    }
}
