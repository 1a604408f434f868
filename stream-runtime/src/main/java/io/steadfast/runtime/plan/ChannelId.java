package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.Objects;

/**
 * A channel of an execution plan: one upstream task to one downstream task. The index is unique within the
 * topology's plan; the epoch counts the deployments of the plan (0 for the first, one more after every
 * global restore), so that frames still in flight from an earlier deployment can never be taken for frames
 * of the new one. Topology id, index and epoch travel on the wire.
 */
public record ChannelId(TopologyId topology, int index, int epoch) implements Comparable<ChannelId> {

    private static final Comparator<ChannelId> ORDER = Comparator.comparing(ChannelId::topology)
            .thenComparingInt(ChannelId::index).thenComparingInt(ChannelId::epoch);

    public ChannelId {
        Objects.requireNonNull(topology, "topology");
        if (index < 0) {
            throw new IllegalArgumentException("channel index must be >= 0, was " + index);
        }
        if (epoch < 0) {
            throw new IllegalArgumentException("channel epoch must be >= 0, was " + epoch);
        }
    }

    /** A channel of a plan's first deployment (epoch 0). */
    public ChannelId(TopologyId topology, int index) {
        this(topology, index, 0);
    }

    /** The same channel in another deployment of the plan. */
    public ChannelId withEpoch(int newEpoch) {
        return new ChannelId(topology, index, newEpoch);
    }

    /**
     * Parses the {@link #toString()} form {@code topology~index} (epoch 0) or {@code topology~index@epoch},
     * which is also the JSON form.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChannelId parse(String text) {
        int tilde = text.lastIndexOf('~');
        if (tilde <= 0 || tilde == text.length() - 1) {
            throw new IllegalArgumentException("Channel id '" + text + "' is not of the form topology~index");
        }
        String rest = text.substring(tilde + 1);
        int at = rest.indexOf('@');
        try {
            int index = Integer.parseInt(at < 0 ? rest : rest.substring(0, at));
            int epoch = at < 0 ? 0 : Integer.parseInt(rest.substring(at + 1));
            return new ChannelId(new TopologyId(text.substring(0, tilde)), index, epoch);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Channel id '" + text + "' has a non-numeric index or epoch");
        }
    }

    @Override
    public int compareTo(ChannelId other) {
        return ORDER.compare(this, other);
    }

    @JsonValue
    @Override
    public String toString() {
        return epoch == 0 ? topology + "~" + index : topology + "~" + index + "@" + epoch;
    }
}
