package io.steadfast.checkpoint.store;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.steadfast.checkpoint.config.CheckpointProperties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * With no {@code spring.mongodb.uri}: starts the embedded store and a driver client to it. Boot's own client steps
 * aside because a {@link MongoClient} bean exists. The client is closed before the server (it depends on it).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedStoreCondition.class)
class EmbeddedStoreConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedStoreConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedMongoStore embeddedMongoStore(CheckpointProperties properties) {
        CheckpointProperties.Embedded embedded = properties.embedded();
        EmbeddedMongoStore store = EmbeddedMongoStore.start(embedded.storeFile(), embedded.bindAddress(),
                embedded.port());
        log.info("Embedded checkpoint store listening at {} with its data in {} (set {} to use a MongoDB server)",
                store.connectionString(), store.file().toAbsolutePath(), EmbeddedStoreCondition.URI_PROPERTY);
        return store;
    }

    @Bean(destroyMethod = "close")
    MongoClient mongoClient(EmbeddedMongoStore store) {
        // the server is local: when it is gone, fail fast rather than wait the driver's default 30s
        return MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(store.connectionString()))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .build());
    }
}
