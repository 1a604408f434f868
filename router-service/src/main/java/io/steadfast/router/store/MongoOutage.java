package io.steadfast.router.store;

import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;

/**
 * Tells a MongoDB that cannot be reached, or cannot take writes for now (a replica set between primaries), from one
 * that refused a particular request: the first is an outage to wait out, the second concerns one record.
 */
public final class MongoOutage {

    private MongoOutage() {
    }

    /**
     * Whether {@code failure} of a MongoDB call means the database is unavailable rather than the request wrong. The
     * driver's exception is looked for among the causes too, since Spring Data translates it into its own.
     */
    public static boolean isOutage(RuntimeException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (isDriverOutage(cause)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDriverOutage(Throwable failure) {
        return failure instanceof MongoSocketException || failure instanceof MongoTimeoutException
                || failure instanceof MongoNotPrimaryException || failure instanceof MongoNodeIsRecoveringException
                || failure instanceof MongoInterruptedException
                || failure instanceof MongoException mongo
                && (mongo.hasErrorLabel("RetryableWriteError")
                || mongo.hasErrorLabel(MongoException.TRANSIENT_TRANSACTION_ERROR_LABEL));
    }
}
