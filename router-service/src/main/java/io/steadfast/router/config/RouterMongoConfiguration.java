package io.steadfast.router.config;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.router.leadership.Leadership;
import io.steadfast.router.store.RouterRecordsMapping;
import io.steadfast.router.store.WriteBehind;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The router's own store, when {@code spring.mongodb.uri} is set: topologies (with plans and placements) and
 * recoveries are kept in the URI's database (default {@code steadfast-router}), so a restarted router resumes what
 * runs. Without the property the router keeps them in memory only.
 *
 * <p>MongoDB is not a single point of failure: the records live in memory, every read answers from there, and
 * changes are written behind ({@link MongoRouterRecords}); the driver's timeouts are short
 * ({@code steadfast.router.store.*}) so that no call waits long for a MongoDB that is down. Its state is the health
 * component {@code routerStore} (DOWN while MongoDB is unreachable, a change is refused or the records are not
 * loaded yet, with the pending writes) and the gauges {@code steadfast.router.store.*}. The readiness group
 * leaves it out on purpose (application.yml): the router manages running topologies without MongoDB.
 *
 * <p>The records are mapped by Spring Data ({@link RouterRecordsMapping}) through a template made here; Boot's
 * Mongo auto-configuration is not on the class path, so nothing else creates a client or probes MongoDB.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "spring.mongodb.uri")
class RouterMongoConfiguration {

    static final String DEFAULT_DATABASE = "steadfast-router";

    @Bean(destroyMethod = "close")
    MongoClient routerMongoClient(@Value("${spring.mongodb.uri}") String uri, RouterStoreProperties properties) {
        return MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(uri))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(
                        properties.serverSelectionTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .applyToSocketSettings(socket -> socket
                        .connectTimeout(properties.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                        .readTimeout(properties.readTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .build());
    }

    /** The records' mapping: {@link RouterRecordsMapping}. */
    @Bean
    MongoTemplate routerMongoTemplate(MongoClient client, @Value("${spring.mongodb.uri}") String uri) {
        String name = new ConnectionString(uri).getDatabase();
        return RouterRecordsMapping.template(client, name == null || name.isBlank() ? DEFAULT_DATABASE : name);
    }

    /** Loads the records (or starts retrying in the background); closed before the client. */
    @Bean(destroyMethod = "close")
    MongoRouterRecords mongoRouterRecords(MongoTemplate routerMongoTemplate, RouterStoreProperties properties,
                                          Clock clock, Leadership leadership) {
        return new MongoRouterRecords(routerMongoTemplate, properties.writeBehind(), clock, leadership);
    }

    /** Health component {@code routerStore}; reads the queues' state and never calls MongoDB itself. */
    @Bean
    HealthIndicator routerStoreHealthIndicator(MongoRouterRecords records) {
        return () -> {
            Health.Builder health = records.statuses().stream().allMatch(WriteBehind.Status::healthy)
                    ? Health.up() : Health.down();
            health.withDetail("store", records.storeName());
            for (WriteBehind.Status status : records.statuses()) {
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("loaded", status.loaded());
                details.put("reachable", status.reachable());
                details.put("pendingWrites", status.pendingWrites());
                if (status.unreachableSince() != null) {
                    details.put("unreachableSince", status.unreachableSince().toString());
                }
                if (status.lastError() != null) {
                    details.put("lastError", status.lastError());
                }
                health.withDetail(status.records(), details);
            }
            return health.build();
        };
    }

    @Bean
    MeterBinder routerStoreMetrics(MongoRouterRecords records) {
        return registry -> {
            for (int i = 0; i < records.statuses().size(); i++) {
                int index = i;
                Gauge.builder("steadfast.router.store.writes.pending", records,
                                r -> r.statuses().get(index).pendingWrites())
                        .tag("records", records.statuses().get(index).records())
                        .description("Changes of the router's records that MongoDB has not taken yet (kept in memory"
                                + " and retried)")
                        .register(registry);
            }
            Gauge.builder("steadfast.router.store.reachable", records,
                            r -> r.statuses().stream().allMatch(WriteBehind.Status::reachable) ? 1 : 0)
                    .description("1 while MongoDB answers the router, 0 while it does not")
                    .register(registry);
            Gauge.builder("steadfast.router.store.loaded", records, r -> r.loaded() ? 1 : 0)
                    .description("1 once the router's records were loaded from MongoDB, 0 before")
                    .register(registry);
        };
    }

    /**
     * Until the records are loaded, the topology and recovery API answers 503 (RecordsNotLoadedException): an empty
     * list would be a wrong answer, and a topology deployed meanwhile could take the id of a stored one. Hosts keep
     * registering and sending heartbeats meanwhile.
     */
    @Bean
    WebMvcConfigurer recordsLoadedGate(MongoRouterRecords records) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new HandlerInterceptor() {
                    @Override
                    public boolean preHandle(HttpServletRequest request, HttpServletResponse response,
                                             Object handler) {
                        records.requireLoaded();
                        return true;
                    }
                }).addPathPatterns("/api/v1/topologies", "/api/v1/topologies/**", "/api/v1/recoveries",
                        "/api/v1/recoveries/**");
            }
        };
    }
}
