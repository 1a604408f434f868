package io.steadfast.router.config;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The router's own store, when {@code spring.mongodb.uri} is set: topologies (with plans and placements) and
 * recoveries live in the URI's database (default {@code steadfast-router}), so a restarted router resumes what
 * runs. Without the property the router keeps them in memory. Boot's Mongo auto-configuration is not on the
 * class path (plain driver), so the health indicator is ours: {@code {ping: 1}}, which the embedded
 * MongoDB-wire server answers (it does not know {@code hello}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "spring.mongodb.uri")
class RouterMongoConfiguration {

    static final String DEFAULT_DATABASE = "steadfast-router";

    @Bean(destroyMethod = "close")
    MongoClient routerMongoClient(@Value("${spring.mongodb.uri}") String uri) {
        return MongoClients.create(com.mongodb.MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(uri))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .applyToSocketSettings(socket -> socket.connectTimeout(2, TimeUnit.SECONDS)
                        .readTimeout(10, TimeUnit.SECONDS))
                .build());
    }

    @Bean
    MongoDatabase routerDatabase(MongoClient client, @Value("${spring.mongodb.uri}") String uri) {
        String name = new ConnectionString(uri).getDatabase();
        return client.getDatabase(name == null || name.isBlank() ? DEFAULT_DATABASE : name);
    }

    @Bean
    AbstractHealthIndicator mongoHealthIndicator(MongoDatabase routerDatabase) {
        return new AbstractHealthIndicator("MongoDB ping failed") {
            @Override
            protected void doHealthCheck(Health.Builder builder) {
                routerDatabase.runCommand(new Document("ping", 1));
                builder.up().withDetail("database", routerDatabase.getName());
            }
        };
    }
}
