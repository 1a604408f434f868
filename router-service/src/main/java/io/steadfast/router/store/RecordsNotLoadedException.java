package io.steadfast.router.store;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The router's records of some kind have not been loaded from their store yet (it was unreachable when the router
 * started), so the router takes no change to them and cannot answer for them: the REST API maps this to 503.
 */
public final class RecordsNotLoadedException extends RuntimeException {

    private final Duration retryInterval;

    public RecordsNotLoadedException(String records, String storeName, Duration retryInterval,
                                     @Nullable String lastError) {
        super("The router has not loaded its " + records + " from " + storeName + " yet"
                + (lastError == null ? "" : " (" + lastError + ")") + "; it tries again every " + retryInterval
                + " and takes no topology or recovery changes until then. Check that the store is up"
                + " (spring.mongodb.uri) and see /actuator/health, component routerStore");
        this.retryInterval = retryInterval;
    }

    /** How long until the next load attempt at most: a fair Retry-After. */
    public Duration retryInterval() {
        return retryInterval;
    }
}
