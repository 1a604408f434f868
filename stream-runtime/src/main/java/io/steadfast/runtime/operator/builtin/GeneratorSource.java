package io.steadfast.runtime.operator.builtin;

import io.steadfast.api.source.Source;
import io.steadfast.api.source.SourceInit;
import io.steadfast.api.source.SourceOutput;
import java.time.InstantSource;

/**
 * A deterministic generator: subtask s of p emits the global event indices s, s+p, s+2p, ... below the
 * configured count. Key, value and event time are pure functions of the index, so a run is replayable from
 * any position and its expected results can be computed. The position is the number of events this subtask
 * has emitted. Pacing (ratePerSecond) uses the injected clock and never affects what is emitted.
 */
public final class GeneratorSource implements Source<Object> {

    /** Key spaces up to this size keep their key strings, so emitting does not build a string per event. */
    private static final int MAX_CACHED_KEYS = 1 << 16;

    private final GeneratorConfig config;
    private final String[] keyCache;
    private final int subtask;
    private final int parallelism;
    private final InstantSource clock;
    private final double ratePerMilli;
    private long position;
    private long pacingStartMillis = -1;
    private long pacingStartPosition;

    public GeneratorSource(SourceInit<GeneratorConfig> init) {
        this.config = init.config();
        this.subtask = init.operator().subtask();
        this.parallelism = init.operator().parallelism();
        this.clock = init.clock();
        this.ratePerMilli = config.ratePerSecond() / 1000.0 / parallelism;
        this.keyCache = config.keys() <= MAX_CACHED_KEYS ? new String[config.keys()] : null;
    }

    /** How many events subtask {@code subtask} of {@code parallelism} emits in all, for a bounded generator. */
    public static long eventsOfSubtask(long count, int subtask, int parallelism) {
        return count <= subtask ? 0 : (count - subtask + parallelism - 1) / parallelism;
    }

    @Override
    public int poll(SourceOutput<Object> output, int maxEvents) {
        long limit = config.count() == 0 ? Long.MAX_VALUE : eventsOfSubtask(config.count(), subtask, parallelism);
        if (position >= limit) {
            return EXHAUSTED;
        }
        long allowed = Math.min(maxEvents, limit - position);
        if (ratePerMilli > 0) {
            allowed = Math.min(allowed, pacedAllowance());
        }
        for (long i = 0; i < allowed; i++) {
            long index = subtask + position * parallelism;
            output.emit(keyOf(index), GeneratorConfig.valueOf(index),
                    config.startTime() + index * config.eventTimeStepMillis());
            position++;
        }
        return (int) allowed;
    }

    private String keyOf(long index) {
        if (keyCache == null) {
            return config.keyOf(index);
        }
        int slot = (int) (index % keyCache.length);
        String key = keyCache[slot];
        if (key == null) {
            key = config.keyOf(index);
            keyCache[slot] = key;
        }
        return key;
    }

    private long pacedAllowance() {
        long now = clock.millis();
        if (pacingStartMillis < 0) {
            pacingStartMillis = config.pacedSince() != null ? config.pacedSince() : now;
            pacingStartPosition = config.pacedSince() != null ? 0 : position;
        }
        long due = pacingStartPosition + (long) ((now - pacingStartMillis + 1) * ratePerMilli);
        return Math.max(0, due - position);
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public void seek(long newPosition) {
        if (newPosition < 0) {
            throw new IllegalArgumentException("position must be >= 0, was " + newPosition);
        }
        this.position = newPosition;
        this.pacingStartMillis = -1;
    }
}
