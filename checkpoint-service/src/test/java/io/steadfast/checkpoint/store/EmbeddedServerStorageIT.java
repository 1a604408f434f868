package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.steadfast.checkpoint.replaylog.ReplayLogStorageContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** The contract against the embedded store as the service runs it: H2 file backend, driver over TCP. */
class EmbeddedServerStorageIT extends CheckpointStorageContract {

    @TempDir
    static Path dir;
    private static EmbeddedMongoStore store;
    private static MongoClient client;

    @BeforeAll
    static void start() {
        store = EmbeddedMongoStore.start(dir.resolve("store.mv"), "127.0.0.1", 0);
        client = MongoClients.create(store.connectionString());
    }

    @AfterAll
    static void stop() {
        client.close();
        store.close();
    }

    @Override
    protected MongoDatabase database(String name) {
        return client.getDatabase(name);
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
