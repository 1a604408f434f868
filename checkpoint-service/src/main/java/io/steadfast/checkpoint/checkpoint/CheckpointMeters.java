package io.steadfast.checkpoint.checkpoint;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.runtime.topology.TopologyId;

/** Counts completed and failed checkpoints per topology (and failure reason). */
public class CheckpointMeters {

    private final MeterRegistry registry;

    public CheckpointMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void completed(TopologyId topology) {
        Counter.builder("steadfast.checkpoint.completed")
                .description("Checkpoints that completed")
                .tag("topology", topology.value())
                .register(registry)
                .increment();
    }

    void failed(TopologyId topology, CheckpointFailureReason reason) {
        Counter.builder("steadfast.checkpoint.failed")
                .description("Checkpoints that failed")
                .tag("topology", topology.value())
                .tag("reason", reason.name())
                .register(registry)
                .increment();
    }
}
