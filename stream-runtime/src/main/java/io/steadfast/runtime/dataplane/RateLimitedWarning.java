package io.steadfast.runtime.dataplane;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Logs a recurring warning at most once per period, with the number of occurrences suppressed in between.
 * IO thread only.
 */
final class RateLimitedWarning {

    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Logger log;
    private long lastLoggedNanos;
    private long suppressed;
    private boolean loggedOnce;

    RateLimitedWarning(Logger log) {
        this.log = log;
    }

    void warn(long nowNanos, String format, Object... arguments) {
        if (loggedOnce && nowNanos - lastLoggedNanos < PERIOD_NANOS) {
            suppressed++;
            return;
        }
        if (suppressed > 0) {
            log.warn("({} similar warnings suppressed in the last {} s)", suppressed,
                    TimeUnit.NANOSECONDS.toSeconds(nowNanos - lastLoggedNanos));
        }
        log.warn(format, arguments);
        loggedOnce = true;
        lastLoggedNanos = nowNanos;
        suppressed = 0;
    }
}
