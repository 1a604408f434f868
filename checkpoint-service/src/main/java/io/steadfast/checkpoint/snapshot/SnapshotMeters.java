package io.steadfast.checkpoint.snapshot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.runtime.topology.TopologyId;

/** Counts the snapshot bytes stored, per topology. */
public class SnapshotMeters {

    private final MeterRegistry registry;

    public SnapshotMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    public void stored(StoredSnapshot snapshot) {
        Counter.builder("steadfast.checkpoint.snapshots.bytes")
                .description("Snapshot bytes stored")
                .baseUnit("bytes")
                .tag("topology", snapshot.topology().value())
                .register(registry)
                .increment(snapshot.sizeBytes());
    }
}
