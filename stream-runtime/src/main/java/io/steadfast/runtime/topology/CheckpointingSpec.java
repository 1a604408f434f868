package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.Optional;

/**
 * A topology's own checkpoint settings, the optional {@code "checkpointing"} section of its JSON:
 * {@code {"intervalMs": 1000, "timeoutMs": 10000, "maxConcurrent": 1}}. A field left out (or the whole section)
 * means the router's default. Values are kept raw, as written, so that a non-positive one is reported by
 * {@link TopologyValidator} with the other problems rather than failing the parse.
 *
 * @param intervalMs milliseconds between checkpoint triggers, or null for the router's default
 * @param timeoutMs milliseconds after its trigger by which a checkpoint must complete, or null for the default
 * @param maxConcurrent the most checkpoints pending at once, or null for the default
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckpointingSpec(Long intervalMs, Long timeoutMs, Integer maxConcurrent) {

    /** No section: every setting is the router's default. */
    public static final CheckpointingSpec DEFAULTS = new CheckpointingSpec(null, null, null);

    @JsonCreator
    static CheckpointingSpec fromJson(@JsonProperty("intervalMs") Long intervalMs,
                                      @JsonProperty("timeoutMs") Long timeoutMs,
                                      @JsonProperty("maxConcurrent") Integer maxConcurrent) {
        return new CheckpointingSpec(intervalMs, timeoutMs, maxConcurrent);
    }

    /** The interval, if the topology sets one; use after validation. */
    @JsonIgnore
    public Optional<Duration> interval() {
        return Optional.ofNullable(intervalMs).map(Duration::ofMillis);
    }

    /** The timeout, if the topology sets one; use after validation. */
    @JsonIgnore
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeoutMs).map(Duration::ofMillis);
    }
}
