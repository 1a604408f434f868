package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import io.steadfast.checkpoint.checkpoint.CheckpointRecordsMapping;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The embedded store as the service runs it (an H2 file behind the MongoDB-wire server), reached by the driver over
 * TCP, for one test class: started in a temporary directory before its first test, stopped and deleted after its
 * last. Register it as a static field with {@code @RegisterExtension}; {@code @Nested} classes share it.
 */
public final class EmbeddedStoreOverTcp implements BeforeAllCallback, AfterAllCallback {

    private Path dir;
    private EmbeddedMongoStore store;
    private MongoClient client;
    /** Classes running that use it: the outer class and its nested ones each call before and after. */
    private int users;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        if (users++ > 0) {
            return;
        }
        dir = Files.createTempDirectory("steadfast-store-test");
        store = EmbeddedMongoStore.start(dir.resolve("store.mv"), "127.0.0.1", 0);
        client = MongoClients.create(store.connectionString());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (--users > 0) {
            return;
        }
        client.close();
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** The database of that name. */
    public MongoDatabase database(String name) {
        return client.getDatabase(name);
    }

    /** A template on {@code database} with the checkpoint records' mapping, as the service makes it. */
    public MongoTemplate records(MongoDatabase database) {
        return CheckpointRecordsMapping.template(client, database.getName());
    }

    /** A database no other test uses, named {@code prefix} and a random suffix. */
    public MongoDatabase freshDatabase(String prefix) {
        return database(prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
    }
}
