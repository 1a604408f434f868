package io.steadfast.router.checkpoint;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The router's checkpoint meters, fed by the coordinators as each checkpoint ends: the counter
 * {@code steadfast.checkpoints} tagged {@code outcome} (COMPLETED or FAILED) and {@code reason} (none, or a
 * {@link CheckpointFailureReason}), the timer {@code steadfast.checkpoint.duration} (trigger to recorded complete) and
 * the distribution summary {@code steadfast.checkpoint.size} (bytes of every task's snapshot) of completed
 * checkpoints, both with percentile histograms. No topology tag: one set of series per router. Thread-safe.
 */
public final class CheckpointMeters implements CheckpointOutcomes {

    private final Counter completed;
    private final Map<CheckpointFailureReason, Counter> failed = new EnumMap<>(CheckpointFailureReason.class);
    private final Timer duration;
    private final DistributionSummary size;

    /** Registers every meter at once (counters at zero), so that an alert sees them before the first checkpoint. */
    public CheckpointMeters(MeterRegistry registry) {
        completed = counter(registry, "COMPLETED", "none");
        for (CheckpointFailureReason reason : CheckpointFailureReason.values()) {
            failed.put(reason, counter(registry, "FAILED", reason.name()));
        }
        duration = Timer.builder("steadfast.checkpoint.duration")
                .description("Completed checkpoints: from trigger until recorded complete")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(10))
                .maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
        size = DistributionSummary.builder("steadfast.checkpoint.size")
                .description("Completed checkpoints: the sizes of their tasks' stored snapshots, summed")
                .baseUnit("bytes").publishPercentileHistogram().minimumExpectedValue(1024.0)
                .maximumExpectedValue(64.0 * 1024 * 1024 * 1024).register(registry);
    }

    private static Counter counter(MeterRegistry registry, String outcome, String reason) {
        return Counter.builder("steadfast.checkpoints").description("Checkpoints ended, by outcome and failure reason")
                .tags("outcome", outcome, "reason", reason).register(registry);
    }

    @Override
    public void completed(TopologyId topology, long checkpointId, Duration took, long sizeBytes) {
        completed.increment();
        duration.record(took);
        size.record(sizeBytes);
    }

    @Override
    public void failed(TopologyId topology, long checkpointId, CheckpointFailureReason reason) {
        failed.get(reason).increment();
    }
}
