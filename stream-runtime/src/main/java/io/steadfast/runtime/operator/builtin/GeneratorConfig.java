package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.operator.ConfigException;

/**
 * Config of the {@code generator} source. Every field may be left out.
 *
 * @param count total events over all subtasks (default 1,000,000); 0 means unbounded
 * @param keys number of distinct keys (default 1,000); event i has key {@code keyPrefix + (i % keys)}
 * @param ratePerSecond total events per second over all subtasks; 0 (the default) means as fast as possible
 * @param startTime event time of event 0, epoch millis (default 1,700,000,000,000)
 * @param eventTimeStepMillis event time advance per event index (default 1)
 * @param keyPrefix prefix of every key (default "key-")
 * @param pacedSince with a rate, the wall-clock time (epoch millis) its schedule starts from: event n of the
 *                   subtask is due {@code n / rate} after it, so a source restored after a failure emits what fell due
 *                   meanwhile at once, like a log-based source reading its backlog. Left out, the schedule starts at
 *                   the subtask's first poll in each run, so a restored source goes on at the rate from where it was
 */
public record GeneratorConfig(Long count, Integer keys, Long ratePerSecond, Long startTime, Long eventTimeStepMillis,
                              String keyPrefix, Long pacedSince) {

    /** A generator paced from its first poll. */
    public GeneratorConfig(Long count, Integer keys, Long ratePerSecond, Long startTime, Long eventTimeStepMillis,
                           String keyPrefix) {
        this(count, keys, ratePerSecond, startTime, eventTimeStepMillis, keyPrefix, null);
    }

    public GeneratorConfig {
        count = count == null ? 1_000_000L : count;
        keys = keys == null ? 1_000 : keys;
        ratePerSecond = ratePerSecond == null ? 0L : ratePerSecond;
        startTime = startTime == null ? 1_700_000_000_000L : startTime;
        eventTimeStepMillis = eventTimeStepMillis == null ? 1L : eventTimeStepMillis;
        keyPrefix = keyPrefix == null ? "key-" : keyPrefix;
        if (count < 0) {
            throw new ConfigException("count", "count must be >= 0 (0 = unbounded), was " + count);
        }
        if (keys < 1) {
            throw new ConfigException("keys", "keys must be >= 1, was " + keys);
        }
        if (ratePerSecond < 0) {
            throw new ConfigException("ratePerSecond", "ratePerSecond must be >= 0 (0 = unlimited), was " + ratePerSecond);
        }
        if (pacedSince != null && pacedSince < 0) {
            throw new ConfigException("pacedSince", "pacedSince must be epoch millis >= 0, was " + pacedSince);
        }
        if (eventTimeStepMillis < 0) {
            throw new ConfigException("eventTimeStepMillis", "eventTimeStepMillis must be >= 0, was " + eventTimeStepMillis);
        }
    }

    public static GeneratorConfig defaults() {
        return new GeneratorConfig(null, null, null, null, null, null);
    }

    /** The key of event index {@code i}. */
    public String keyOf(long index) {
        return keyPrefix + (index % keys);
    }

    /** The value of event index {@code i}: a small number that varies, so sums are meaningful. */
    public static long valueOf(long index) {
        return index % 10 + 1;
    }
}
