package io.steadfast.router.checkpoint;

import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link CheckpointCoordinator} per deployed topology, reconciled with the {@link TopologyRepository}
 * at every tick: a new topology gets one, a cancelled one loses it (and its records), a paused one (being
 * recovered) has none until resumed. Ticks all of them on one thread, {@code steadfast-router-checkpoints}
 * (see {@link #start}). Checkpoint ids of a topology keep increasing across coordinators. Thread-safe.
 */
public final class CheckpointCoordinators implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinators.class);

    private final TopologyRepository topologies;
    private final CheckpointRecords records;
    private final CheckpointTriggers triggers;
    private final TopologyProgress progress;
    private final Clock clock;
    private final CheckpointSettings settings;
    private final Map<TopologyId, CheckpointCoordinator> coordinators = new ConcurrentHashMap<>();
    private final Map<TopologyId, Long> nextIds = new ConcurrentHashMap<>();
    private final Map<TopologyId, CompletedCheckpoint> lastCompleted = new ConcurrentHashMap<>();
    private final Set<TopologyId> paused = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService executor;

    public CheckpointCoordinators(TopologyRepository topologies, CheckpointRecords records,
                                  CheckpointTriggers triggers, TopologyProgress progress, Clock clock,
                                  CheckpointSettings settings) {
        this.topologies = topologies;
        this.records = records;
        this.triggers = triggers;
        this.progress = progress;
        this.clock = clock;
        this.settings = settings;
    }

    /** Ticks every {@code period} on the thread {@code steadfast-router-checkpoints}. */
    public synchronized void start(java.time.Duration period) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "steadfast-router-checkpoints");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.error("Checkpoint tick failed; retrying", e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Reconciles with the repository, then ticks every coordinator. */
    public synchronized void tick() {
        Map<TopologyId, DeployedTopology> deployed = new ConcurrentHashMap<>();
        topologies.all().forEach(topology -> deployed.put(topology.id(), topology));
        for (TopologyId id : Set.copyOf(coordinators.keySet())) {
            if (!deployed.containsKey(id)) {
                remove(id);
            }
        }
        for (DeployedTopology topology : deployed.values()) {
            if (!paused.contains(topology.id()) && !coordinators.containsKey(topology.id())) {
                create(topology);
            }
        }
        for (CheckpointCoordinator coordinator : coordinators.values()) {
            DeployedTopology topology = deployed.get(coordinator.topology());
            coordinator.tick(topology != null && progress.sourcesFinished(topology));
        }
    }

    private void create(DeployedTopology topology) {
        Long known = nextIds.get(topology.id());
        long firstId;
        if (known != null) {
            firstId = known;
        } else {
            // First coordinator of this topology in this router (a new deployment, or a topology resumed after a
            // router restart): continue after every id the checkpoint-service knows, so ids keep increasing.
            try {
                firstId = records.list(topology.id()).stream().mapToLong(CheckpointStats::checkpointId).max()
                        .orElse(0L) + 1;
            } catch (RuntimeException e) {
                LOG.warn("Not checkpointing '{}' yet: could not read its earlier checkpoint ids ({}); retrying",
                        topology.id(), e.getMessage());
                return;
            }
        }
        CheckpointCoordinator coordinator = new CheckpointCoordinator(topology, firstId, records, triggers,
                () -> progress.sinkRecordsIn(topology), clock, settings, lastCompleted.get(topology.id()));
        coordinators.put(topology.id(), coordinator);
        LOG.info("Checkpointing topology '{}' (epoch {}) every {} from id {}", topology.id(), topology.plan().epoch(),
                settings.interval(), firstId);
    }

    private void remove(TopologyId id) {
        stopCoordinator(id);
        nextIds.remove(id);
        lastCompleted.remove(id);
        try {
            records.delete(id);
        } catch (RuntimeException e) {
            LOG.warn("Could not delete the checkpoints of cancelled topology '{}': {}", id, e.getMessage());
        }
    }

    private void stopCoordinator(TopologyId id) {
        CheckpointCoordinator coordinator = coordinators.remove(id);
        if (coordinator != null) {
            nextIds.put(id, coordinator.stop());
            coordinator.lastCompleted().ifPresent(done -> lastCompleted.put(id, done));
        }
    }

    /** Stops checkpointing a topology (pending ones fail as CANCELLED) until {@link #resume}. */
    public synchronized void pause(TopologyId id) {
        paused.add(id);
        stopCoordinator(id);
    }

    /** Checkpoints the topology again, as the repository now has it, with ids after every one used before. */
    public synchronized void resume(TopologyId id) {
        paused.remove(id);
        topologies.find(id).ifPresent(this::create);
    }

    public Optional<CheckpointCoordinator> coordinator(TopologyId id) {
        return Optional.ofNullable(coordinators.get(id));
    }

    /** The latest checkpoint completed for the topology by this router, across its deployments. */
    public Optional<CompletedCheckpoint> lastCompleted(TopologyId id) {
        return coordinator(id).flatMap(CheckpointCoordinator::lastCompleted)
                .or(() -> Optional.ofNullable(lastCompleted.get(id)));
    }

    public OptionalLong triggerNow(TopologyId id) {
        return coordinator(id).map(CheckpointCoordinator::triggerNow).orElse(OptionalLong.empty());
    }

    public void acknowledge(TopologyId id, long checkpointId, TaskAck ack) {
        coordinator(id).ifPresent(c -> c.acknowledge(checkpointId, ack));
    }

    public void decline(TopologyId id, long checkpointId, TaskId task, HostId host, String reason) {
        coordinator(id).ifPresent(c -> c.decline(checkpointId, task, host, reason));
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (executor != null) {
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
