package io.steadfast.router.config;

import io.steadfast.router.store.WriteBehind;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The router's own store (MongoDB, used when {@code spring.mongodb.uri} is set), prefix
 * {@code steadfast.router.store}. The router keeps its records in memory and writes them to MongoDB behind, so
 * these bound how long a call can wait for MongoDB, never whether the router goes on without it.
 *
 * @param serverSelectionTimeout how long the MongoDB driver looks for a server before a call fails
 * @param connectTimeout how long the driver waits for a TCP connection to MongoDB
 * @param readTimeout how long the driver waits for MongoDB's answer on an open connection
 * @param writeTimeout how long a change waits for MongoDB to take it while MongoDB answers; after that (or at once
 *                     while MongoDB is known to be down) it stays queued and the caller goes on
 * @param retryInterval how often changes MongoDB has not taken, and a load that failed at start-up, are tried again
 * @param probeInterval how often MongoDB is pinged while no change is pending, to report its reachability
 */
@Validated
@ConfigurationProperties("steadfast.router.store")
public record RouterStoreProperties(
        @NotNull @DefaultValue("2s") Duration serverSelectionTimeout,
        @NotNull @DefaultValue("2s") Duration connectTimeout,
        @NotNull @DefaultValue("5s") Duration readTimeout,
        @NotNull @DefaultValue("2s") Duration writeTimeout,
        @NotNull @DefaultValue("1s") Duration retryInterval,
        @NotNull @DefaultValue("5s") Duration probeInterval) {

    public RouterStoreProperties {
        requirePositive("server-selection-timeout", serverSelectionTimeout);
        requirePositive("connect-timeout", connectTimeout);
        requirePositive("read-timeout", readTimeout);
        requirePositive("write-timeout", writeTimeout);
        requirePositive("retry-interval", retryInterval);
        requirePositive("probe-interval", probeInterval);
    }

    WriteBehind.Settings writeBehind() {
        return new WriteBehind.Settings(writeTimeout, retryInterval, probeInterval);
    }

    private static void requirePositive(String key, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("steadfast.router.store." + key + " must be positive, was " + value);
        }
    }
}
