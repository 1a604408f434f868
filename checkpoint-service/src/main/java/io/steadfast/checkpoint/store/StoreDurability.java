package io.steadfast.checkpoint.store;

/**
 * Makes the writes done so far durable. Stores call it after writing and before they return, so that what the
 * service acknowledges survives a crash of the service.
 */
@FunctionalInterface
public interface StoreDurability {

    /** Returns once every write that completed before the call is durable. */
    void sync();

    /** For a real MongoDB: the collections' write concern (majority, journaled) already made each write durable. */
    static StoreDurability byWriteConcern() {
        return () -> {
        };
    }
}
