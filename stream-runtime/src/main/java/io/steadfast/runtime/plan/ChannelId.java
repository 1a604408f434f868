package io.steadfast.runtime.plan;

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

    @Override
    public int compareTo(ChannelId other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return topology + "~" + index;
    }
}
