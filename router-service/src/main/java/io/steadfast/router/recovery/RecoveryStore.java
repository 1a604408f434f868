package io.steadfast.router.recovery;

import java.util.List;

/** Where a {@link RecoveryLog} keeps its recoveries beyond the router's life. Implementations are thread-safe. */
public interface RecoveryStore {

    /** Nothing is kept: recoveries are lost when the router restarts. */
    RecoveryStore NONE = new RecoveryStore() {
        @Override
        public List<Recovery> loadAll() {
            return List.of();
        }

        @Override
        public void save(Recovery recovery) {
        }
    };

    /** Every stored recovery, in any order. */
    List<Recovery> loadAll();

    /** Stores a recovery, replacing the one with its id. */
    void save(Recovery recovery);

    /**
     * Stores a recovery like {@link #save}, but returns once it is queued, without waiting for a durable copy: for
     * the states a recovery passes through on its critical path (a router restarted before they were written
     * recovers the topology afresh anyway).
     */
    default void saveWithoutWaiting(Recovery recovery) {
        save(recovery);
    }
}
