package io.steadfast.checkpoint.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.steadfast.checkpoint.config.CheckpointProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The database both stores use, how writes become durable, and the store's health indicator. */
@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

    @Bean
    MongoDatabase checkpointDatabase(MongoClient client, CheckpointProperties properties) {
        return client.getDatabase(properties.database()).withWriteConcern(StoreDurability.WRITE_CONCERN);
    }

    @Bean
    StoreDurability storeDurability(ObjectProvider<EmbeddedMongoStore> embedded) {
        EmbeddedMongoStore store = embedded.getIfAvailable();
        return store != null ? store::commit : StoreDurability.byWriteConcern();
    }

    /** Named so that Boot's {@code hello}-based check steps aside. */
    @Bean
    MongoPingHealthIndicator mongoHealthIndicator(MongoDatabase database, CheckpointProperties properties,
            ObjectProvider<EmbeddedMongoStore> embedded) {
        EmbeddedMongoStore store = embedded.getIfAvailable();
        String description = store != null ? "embedded " + store.connectionString() + " file " + store.file() : "mongodb";
        return new MongoPingHealthIndicator(database, properties.health().timeout(), description);
    }
}
