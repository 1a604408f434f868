package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoDatabase;
import io.steadfast.checkpoint.replaylog.ReplayLogStorageContract;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.mongodb.core.MongoTemplate;

/** The contract against the embedded store as the service runs it: H2 file backend, driver over TCP. */
class EmbeddedServerStorageIT extends CheckpointStorageContract {

    @RegisterExtension
    static final EmbeddedStoreOverTcp STORE = new EmbeddedStoreOverTcp();

    @Override
    protected MongoDatabase database(String name) {
        return STORE.database(name);
    }

    @Override
    protected MongoTemplate records(MongoDatabase database) {
        return STORE.records(database);
    }

    /** The replay-log contract on the same store. */
    @Nested
    class ReplayLogs extends ReplayLogStorageContract {

        @Override
        protected MongoDatabase database(String name) {
            return EmbeddedServerStorageIT.this.database(name);
        }
    }
}
