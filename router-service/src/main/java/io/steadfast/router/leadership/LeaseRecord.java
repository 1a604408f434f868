package io.steadfast.router.leadership;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;

/**
 * What a router lease says: who holds it, where that router answers, and the epoch of its leadership. The epoch goes
 * up by one each time the lease changes hands; the leader sends it with every call to the hosts, and a host refuses
 * calls of a lower epoch than it has seen, so a deposed leader that still runs cannot act on the cluster.
 *
 * @param holder the holding router process (unique per process, not per address: a restarted router is a new holder)
 * @param holderUrl where the holder serves the router API
 * @param epoch the leadership epoch, from 1
 * @param renewedAt when the holder last wrote it, by its own clock: for people reading the lease; no router
 *                  compares it with its own clock
 */
public record LeaseRecord(String holder, URI holderUrl, long epoch, Instant renewedAt) {

    public LeaseRecord {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(holderUrl, "holderUrl");
        Objects.requireNonNull(renewedAt, "renewedAt");
        if (epoch < 1) {
            throw new IllegalArgumentException("epoch must be >= 1, was " + epoch);
        }
    }

    public LeaseRecord renewed(Instant at) {
        return new LeaseRecord(holder, holderUrl, epoch, at);
    }
}
