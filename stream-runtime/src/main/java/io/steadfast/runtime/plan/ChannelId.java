package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.Objects;

/**
 * A channel of an execution plan: one upstream task to one downstream task. The index is unique within the
 * topology's plan and is what travels on the wire together with the topology id.
 */
public record ChannelId(TopologyId topology, int index) implements Comparable<ChannelId> {

    private static final Comparator<ChannelId> ORDER = Comparator.comparing(ChannelId::topology)
            .thenComparingInt(ChannelId::index);

    public ChannelId {
        Objects.requireNonNull(topology, "topology");
        if (index < 0) {
            throw new IllegalArgumentException("channel index must be >= 0, was " + index);
        }
    }

    /** Parses the {@link #toString()} form {@code topology~index}, which is also the JSON form. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChannelId parse(String text) {
        int tilde = text.lastIndexOf('~');
        if (tilde <= 0 || tilde == text.length() - 1) {
            throw new IllegalArgumentException("Channel id '" + text + "' is not of the form topology~index");
        }
        try {
            return new ChannelId(new TopologyId(text.substring(0, tilde)), Integer.parseInt(text.substring(tilde + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Channel id '" + text + "' has a non-numeric index");
        }
    }

    @Override
    public int compareTo(ChannelId other) {
        return ORDER.compare(this, other);
    }

    @JsonValue
    @Override
    public String toString() {
        return topology + "~" + index;
    }
}
