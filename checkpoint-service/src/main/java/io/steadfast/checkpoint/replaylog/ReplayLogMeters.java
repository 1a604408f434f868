package io.steadfast.checkpoint.replaylog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.runtime.topology.TopologyId;

/**
 * Counts the replay-log segments and bytes stored and deleted, per topology:
 * {@code steadfast.checkpoint.replaylog.segments.stored}, {@code ...bytes.stored}, {@code ...segments.deleted},
 * {@code ...bytes.deleted}.
 */
public class ReplayLogMeters {

    private static final String PREFIX = "steadfast.checkpoint.replaylog.";

    private final MeterRegistry registry;

    public ReplayLogMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    public void stored(StoredSegments stored) {
        count("segments.stored", "Replay-log segments stored", null, stored.topology(), stored.segments());
        count("bytes.stored", "Replay-log bytes stored", "bytes", stored.topology(), stored.bytes());
    }

    public void deleted(TopologyId topology, DeletedSegments deleted) {
        count("segments.deleted", "Replay-log segments deleted (truncated or topology deleted)", null, topology,
                deleted.segments());
        count("bytes.deleted", "Replay-log bytes deleted (truncated or topology deleted)", "bytes", topology,
                deleted.bytes());
    }

    private void count(String name, String description, String unit, TopologyId topology, double amount) {
        Counter.builder(PREFIX + name).description(description).baseUnit(unit)
                .tag("topology", topology.value()).register(registry).increment(amount);
    }
}
