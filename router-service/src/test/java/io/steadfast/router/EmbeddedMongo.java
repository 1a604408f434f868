package io.steadfast.router;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.steadfast.router.store.RouterRecordsMapping;
import org.springframework.data.mongodb.core.MongoTemplate;

/** The embedded MongoDB-wire server (memory backend) on a free loopback port, with a driver client over TCP. */
public final class EmbeddedMongo implements AutoCloseable {

    private final MongoServer server;
    private final MongoClient client;

    private EmbeddedMongo() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        client = MongoClients.create(server.getConnectionString());
    }

    public static EmbeddedMongo start() {
        return new EmbeddedMongo();
    }

    public MongoDatabase database(String name) {
        return client.getDatabase(name);
    }

    /** A template on the database {@code name} with the router's records mapping, as the router makes it. */
    public MongoTemplate records(String name) {
        return RouterRecordsMapping.template(client, name);
    }

    /** A {@code spring.mongodb.uri} for the database {@code name} on this server. */
    public String uri(String name) {
        return "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/" + name;
    }

    @Override
    public void close() {
        client.close();
        server.shutdownNow();
    }
}
