package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The number of a checkpoint within its topology, as the router's coordinator assigns them: increasing, from 0. */
public record CheckpointId(long value) implements Comparable<CheckpointId> {

    public CheckpointId {
        if (value < 0) {
            throw new IllegalArgumentException("checkpoint id must be >= 0, was " + value);
        }
    }

    /** Reads the JSON form, a plain number. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static CheckpointId of(long value) {
        return new CheckpointId(value);
    }

    @JsonValue
    public long jsonValue() {
        return value;
    }

    @Override
    public int compareTo(CheckpointId other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
