package io.steadfast.router.leadership;

import io.steadfast.protocol.router.RouterHeaders;
import java.net.URI;
import java.util.Optional;

/**
 * Whether this router is the one that acts, and since which epoch. With one router ({@link #sole}) it always is,
 * in epoch 0; among replicas a {@link LeaderElection} decides.
 */
public interface Leadership {

    /** Name of the header that carries the leader's epoch on the router's calls to hosts and on its answers. */
    String EPOCH_HEADER = RouterHeaders.EPOCH;
    /** Name of the header with which a standby router names the leader's URL. */
    String LEADER_HEADER = RouterHeaders.LEADER;

    /** Whether this router may act now. */
    boolean isLeading();

    /** The epoch of this router's leadership: 0 without an election, from 1 with one. */
    long epoch();

    /** The leader's URL as far as this router knows: its own while it leads. */
    Optional<URI> leaderUrl();

    /** The leadership of a router that runs alone: always leading, epoch 0. */
    static Leadership sole(URI self) {
        return new Leadership() {
            @Override
            public boolean isLeading() {
                return true;
            }

            @Override
            public long epoch() {
                return 0;
            }

            @Override
            public Optional<URI> leaderUrl() {
                return Optional.of(self);
            }
        };
    }
}
