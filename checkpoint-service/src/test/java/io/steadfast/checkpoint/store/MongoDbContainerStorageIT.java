package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.steadfast.checkpoint.replaylog.ReplayLogStorageContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import io.steadfast.checkpoint.checkpoint.CheckpointRecordsMapping;
import org.springframework.data.mongodb.core.MongoTemplate;

/** The contract against a real MongoDB 7; skipped where there is no Docker. */
@Testcontainers(disabledWithoutDocker = true)
class MongoDbContainerStorageIT extends CheckpointStorageContract {

    @Container
    static final MongoDBContainer MONGO = new MongoDBContainer("mongo:7");
    private static MongoClient client;

    @BeforeAll
    static void connect() {
        client = MongoClients.create(MONGO.getConnectionString());
    }

    @AfterAll
    static void disconnect() {
        if (client != null) {
            client.close();
        }
    }

    @Override
    protected MongoDatabase database(String name) {
        return client.getDatabase(name).withWriteConcern(com.mongodb.WriteConcern.MAJORITY.withJournal(true));
    }

    @Override
    protected MongoTemplate records(MongoDatabase database) {
        return CheckpointRecordsMapping.template(client, database.getName());
    }

    /** The replay-log contract on the same store. */
    @Nested
    class ReplayLogs extends ReplayLogStorageContract {

        @Override
        protected MongoDatabase database(String name) {
            return MongoDbContainerStorageIT.this.database(name);
        }
    }
}
