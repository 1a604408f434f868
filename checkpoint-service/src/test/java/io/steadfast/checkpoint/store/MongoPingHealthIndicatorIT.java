package io.steadfast.checkpoint.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The ping check against the embedded server over TCP: UP while it runs, DOWN (not an exception) once it stops. */
@Timeout(60)
class MongoPingHealthIndicatorIT {

    @Test
    void isUpWhileTheServerRunsAndDownOnceItStops() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        try (MongoClient client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(server.getConnectionString()))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .build())) {
            MongoPingHealthIndicator indicator = new MongoPingHealthIndicator(client.getDatabase("health"),
                    Duration.ofSeconds(1), "embedded test");

            Health up = indicator.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("store", "embedded test");

            server.shutdownNow();

            Health down = indicator.health(true);
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsKey("error");
        } finally {
            server.shutdownNow();
        }
    }
}
