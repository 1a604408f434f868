package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoDatabase;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The store's health: {@code {ping: 1}} within a timeout. Replaces Boot's Mongo check, which sends {@code hello}
 * and so reports the embedded server DOWN.
 */
public class MongoPingHealthIndicator extends AbstractHealthIndicator {

    private final MongoDatabase database;
    private final Duration timeout;
    private final String store;

    public MongoPingHealthIndicator(MongoDatabase database, Duration timeout, String store) {
        super("MongoDB ping failed");
        this.database = database;
        this.timeout = timeout;
        this.store = store;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        database.withTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).runCommand(new Document("ping", 1));
        builder.up().withDetail("store", store).withDetail("database", database.getName());
    }
}
