package io.steadfast.checkpoint.store;

import com.mongodb.WriteConcern;
import java.util.concurrent.TimeUnit;

/**
 * Makes the writes done so far durable. Stores call it after writing and before they return, so that what the
 * service acknowledges survives a crash of the service.
 */
@FunctionalInterface
public interface StoreDurability {

    /** The write concern of every store: acknowledged by a majority and journaled. */
    WriteConcern WRITE_CONCERN = WriteConcern.MAJORITY.withJournal(true).withWTimeout(30, TimeUnit.SECONDS);

    /** Returns once every write that completed before the call is durable. */
    void sync();

    /** For a real MongoDB: the collections' write concern (majority, journaled) already made each write durable. */
    static StoreDurability byWriteConcern() {
        return () -> {
        };
    }
}
