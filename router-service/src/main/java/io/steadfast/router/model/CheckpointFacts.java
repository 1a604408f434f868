package io.steadfast.router.model;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a recovery would restore from, for the delay model: the latest completed checkpoint of a topology, when it
 * was triggered, how long it took and each task's state in it, read once per checkpoint from the checkpoint records
 * and kept until a newer one completes. With none completed (or its record unreadable), a recovery restores the
 * initial state and reprocesses everything since the deployment. Thread-safe.
 */
public final class CheckpointFacts {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointFacts.class);

    /**
     * The checkpoint a recovery would restore from.
     *
     * @param checkpointId its id; 0 for none (the initial state)
     * @param triggeredAt when it was triggered (the deployment, for none): what came after it is processed again
     * @param durationSeconds how long it took to complete
     * @param stateBytes each task's state in it
     */
    public record Latest(long checkpointId, Instant triggeredAt, double durationSeconds,
                         Map<TaskId, Long> stateBytes) {

        public Latest {
            stateBytes = Map.copyOf(stateBytes);
        }

        public long stateBytes(TaskId task) {
            return stateBytes.getOrDefault(task, 0L);
        }

        /** Seconds from its trigger to {@code now}: the age a failure at {@code now} meets. */
        public double ageSeconds(Instant now) {
            return Math.max(0, Duration.between(triggeredAt, now).toNanos() / 1e9);
        }
    }

    private final CheckpointCoordinators coordinators;
    private final CheckpointRecords records;
    private final Map<TopologyId, Latest> read = new ConcurrentHashMap<>();

    /** Facts of the checkpoints {@code coordinators} complete; a topology they forget (cancelled) is forgotten here. */
    public CheckpointFacts(CheckpointCoordinators coordinators, CheckpointRecords records) {
        this.coordinators = coordinators;
        this.records = records;
        coordinators.onRemoved(this::forget);
    }

    /** The checkpoint {@code topology} would restore from now, read from the records the first time it is asked. */
    public Latest latest(DeployedTopology topology) {
        return latest(topology, true);
    }

    /**
     * As {@link #latest}, without reading the records: for the recovery's path. A checkpoint not read yet is taken
     * with the state sizes of the one read before (state changes little from one checkpoint to the next) and
     * triggered that one's duration before it completed.
     */
    public Latest latestKnown(DeployedTopology topology) {
        return latest(topology, false);
    }

    private Latest latest(DeployedTopology topology, boolean readIfNew) {
        Optional<CompletedCheckpoint> completed = coordinators.lastCompleted(topology.id());
        if (completed.isEmpty()) {
            return new Latest(0, topology.deployedAt(), 0, Map.of());
        }
        Latest known = read.get(topology.id());
        if (known != null && known.checkpointId() == completed.get().checkpointId()) {
            return known;
        }
        if (readIfNew) {
            Optional<Latest> latest = readRecord(topology.id(), completed.get());
            if (latest.isPresent()) {
                read.put(topology.id(), latest.get());
                return latest.get();
            }
        }
        // not read, or unreadable now (the store is down): estimated from the one read before, if any
        double duration = known == null ? 0 : known.durationSeconds();
        return new Latest(completed.get().checkpointId(),
                completed.get().completedAt().minusNanos(Math.round(duration * 1e9)), duration,
                known == null ? Map.of() : known.stateBytes());
    }

    /** Forgets a cancelled topology's checkpoint. */
    void forget(TopologyId topology) {
        read.remove(topology);
    }

    /** How many topologies' checkpoints are kept: for tests. */
    int topologiesKept() {
        return read.size();
    }

    private Optional<Latest> readRecord(TopologyId topology, CompletedCheckpoint completed) {
        try {
            Optional<CheckpointDetail> detail = records.find(topology, completed.checkpointId());
            if (detail.isPresent()) {
                Map<TaskId, Long> sizes = new HashMap<>();
                detail.get().tasks().forEach(task -> sizes.put(task.task(),
                        task.sizeBytes() == null ? 0L : task.sizeBytes()));
                Long millis = detail.get().summary().durationMillis();
                return Optional.of(new Latest(completed.checkpointId(), detail.get().summary().triggeredAt(),
                        millis == null ? 0 : millis / 1000.0, sizes));
            }
        } catch (RuntimeException e) {
            LOG.debug("No record of checkpoint {} of '{}' for the delay model: {}", completed.checkpointId(), topology,
                    e.toString());
        }
        return Optional.empty();
    }
}
