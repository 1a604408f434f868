package io.steadfast.router.checkpoint;

import io.steadfast.router.checkpoint.CheckpointingStatus.State;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidationException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link CheckpointCoordinator} per deployed topology, reconciled with the {@link TopologyRepository}
 * at every tick: a new topology gets one (with the router's default settings overridden by the topology's own
 * {@code checkpointing} section), a cancelled one loses it (and its records), a paused one (being recovered) has
 * none until resumed, and one that is not running (see {@link TopologyProgress#whyNotRunning}) skips its due
 * checkpoints. Each tick first records the checkpoint failures kept while the store was unreachable
 * ({@link UnrecordedFailures}). Ticks all of them on one thread, {@code steadfast-router-checkpoints} (see
 * {@link #start}). Checkpoint ids of a topology keep increasing across coordinators. Thread-safe.
 */
public final class CheckpointCoordinators implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinators.class);
    private static final TopologySpecReader SPECS = new TopologySpecReader();

    private final TopologyRepository topologies;
    private final CheckpointRecords records;
    private final UnrecordedFailures failures;
    private final CheckpointTriggers triggers;
    private final TopologyProgress progress;
    private final Clock clock;
    private final CheckpointSettings defaults;
    private final CheckpointCompletions completions;
    private final List<CheckpointCompletions> completionListeners = new CopyOnWriteArrayList<>();
    private final List<CheckpointOutcomes> outcomeListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<TopologyId>> removalListeners = new CopyOnWriteArrayList<>();
    private final CheckpointOutcomes outcomes = new CheckpointOutcomes() {
        @Override
        public void completed(TopologyId topology, long checkpointId, Duration duration, long sizeBytes) {
            outcomeListeners.forEach(listener -> listener.completed(topology, checkpointId, duration, sizeBytes));
        }

        @Override
        public void failed(TopologyId topology, long checkpointId, CheckpointFailureReason reason) {
            outcomeListeners.forEach(listener -> listener.failed(topology, checkpointId, reason));
        }
    };
    private final Executor triggerCalls;
    private final Map<TopologyId, CheckpointCoordinator> coordinators = new ConcurrentHashMap<>();
    private final Map<TopologyId, Long> nextIds = new ConcurrentHashMap<>();
    private final Map<TopologyId, CompletedCheckpoint> lastCompleted = new ConcurrentHashMap<>();
    /** Topologies without a coordinator on purpose, with the reason. */
    private final Map<TopologyId, String> paused = new ConcurrentHashMap<>();
    /** Topologies whose coordinator could not be created yet, with the reason. */
    private final Map<TopologyId, String> notStarted = new ConcurrentHashMap<>();
    private ScheduledExecutorService executor;
    private Duration tickPeriod;

    /** @param defaults the router's settings, for every topology that does not set its own */
    public CheckpointCoordinators(TopologyRepository topologies, CheckpointRecords records,
                                  CheckpointTriggers triggers, TopologyProgress progress, Clock clock,
                                  CheckpointSettings defaults) {
        this(topologies, records, triggers, progress, clock, defaults, CheckpointCompletions.NONE);
    }

    /** @param completions told of every checkpoint that completes (see {@link CheckpointCompletions}) */
    public CheckpointCoordinators(TopologyRepository topologies, CheckpointRecords records,
                                  CheckpointTriggers triggers, TopologyProgress progress, Clock clock,
                                  CheckpointSettings defaults, CheckpointCompletions completions) {
        this(topologies, records, triggers, progress, clock, defaults, completions, Runnable::run);
    }

    /**
     * @param triggerCalls runs the calls that start checkpoints at the hosts (see {@link CheckpointCoordinator}):
     *                     a pool in a router, so that no tick and no recovery waits for a slow or dead host
     */
    public CheckpointCoordinators(TopologyRepository topologies, CheckpointRecords records,
                                  CheckpointTriggers triggers, TopologyProgress progress, Clock clock,
                                  CheckpointSettings defaults, CheckpointCompletions completions,
                                  Executor triggerCalls) {
        this.triggerCalls = triggerCalls;
        this.completions = (topology, checkpointId, hosts) -> {
            completions.completed(topology, checkpointId, hosts);
            completionListeners.forEach(listener -> listener.completed(topology, checkpointId, hosts));
        };
        this.topologies = topologies;
        this.records = records;
        this.failures = new UnrecordedFailures(records, clock, UnrecordedFailures.DEFAULT_MAX_PER_TOPOLOGY);
        this.triggers = triggers;
        this.progress = progress;
        this.clock = clock;
        this.defaults = defaults;
    }

    /**
     * Also tells {@code listener} of every checkpoint that completes from now on, after the completions given at
     * construction; on the coordinator's thread, under its lock (see {@link CheckpointCompletions}).
     */
    public void onCompleted(CheckpointCompletions listener) {
        completionListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Also tells {@code listener} how every checkpoint ends from now on (see {@link CheckpointOutcomes}): the
     * router's meters.
     */
    public void onOutcome(CheckpointOutcomes listener) {
        outcomeListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Also tells {@code listener} of every topology whose checkpointing this forgets because it is no longer deployed
     * (cancelled), so that what others keep of its checkpoints goes too; on the ticking thread.
     */
    public void onRemoved(Consumer<TopologyId> listener) {
        removalListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Ticks every {@code period} on the thread {@code steadfast-router-checkpoints}. */
    public synchronized void start(Duration period) {
        tickPeriod = period;
        executor = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("steadfast-router-checkpoints"));
        executor.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.error("Checkpoint tick failed; retrying", e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Records the failures kept while the store was unreachable, reconciles with the repository, then ticks every
     * coordinator: a running topology may trigger a checkpoint, one that is not running skips it.
     */
    public void tick() {
        failures.flush(); // writes to the store: outside the lock, which recoveries take to pause checkpointing
        tickCoordinators();
    }

    private synchronized void tickCoordinators() {
        Map<TopologyId, DeployedTopology> deployed = new ConcurrentHashMap<>();
        topologies.all().forEach(topology -> deployed.put(topology.id(), topology));
        for (TopologyId id : Set.copyOf(coordinators.keySet())) {
            if (!deployed.containsKey(id)) {
                remove(id);
            }
        }
        Set.copyOf(paused.keySet()).stream().filter(id -> !deployed.containsKey(id)).forEach(this::remove);
        for (DeployedTopology topology : deployed.values()) {
            if (paused.containsKey(topology.id())) {
                continue;
            }
            Optional<CheckpointCoordinator> coordinator = coordinator(topology.id()).or(() -> tryCreate(topology));
            coordinator.ifPresent(c -> progress.whyNotRunning(topology).ifPresentOrElse(c::skipWhileNotRunning,
                    () -> c.tick(progress.sourcesFinished(topology))));
        }
    }

    private Optional<CheckpointCoordinator> tryCreate(DeployedTopology topology) {
        try {
            return Optional.of(create(topology));
        } catch (CheckpointRecordsException e) {
            String reason = "could not read its earlier checkpoint ids from the checkpoint store: " + e.getMessage();
            if (!reason.equals(notStarted.put(topology.id(), reason))) {
                LOG.warn("Not checkpointing '{}' yet: {}; retrying", topology.id(), reason);
            }
            return Optional.empty();
        }
    }

    /** @throws CheckpointRecordsException if the ids the store knows could not be read */
    private CheckpointCoordinator create(DeployedTopology topology) {
        Long known = nextIds.get(topology.id());
        // The first coordinator of this topology in this router (a new deployment, or a topology resumed after a
        // router restart) continues after every id the checkpoint-service knows, so ids keep increasing.
        long firstId = known != null ? known : records.list(topology.id()).stream()
                .mapToLong(stats -> stats.checkpointId().value()).max().orElse(0L) + 1;
        CheckpointSettings settings = settingsOf(topology);
        CheckpointCoordinator coordinator = new CheckpointCoordinator(topology, firstId,
                () -> progress.sinkRecordsIn(topology), settings, lastCompleted.get(topology.id()),
                new CoordinatorContext(records, failures, triggers, completions, triggerCalls, clock, outcomes));
        coordinators.put(topology.id(), coordinator);
        notStarted.remove(topology.id());
        LOG.info("Checkpointing topology '{}' (epoch {}) every {} (timeout {}, at most {} pending) from id {}",
                topology.id(), topology.plan().epoch(), settings.interval(), settings.timeout(),
                settings.maxConcurrent(), firstId);
        if (tickPeriod != null && settings.interval().compareTo(tickPeriod) < 0) {
            LOG.warn("Topology '{}' asks for a checkpoint every {}, but the router looks for due checkpoints every {};"
                    + " it gets one at most every {}. Raise its checkpointing.intervalMs", topology.id(),
                    settings.interval(), tickPeriod, tickPeriod);
        }
        return coordinator;
    }

    /** The router's defaults with the topology's own {@code checkpointing} section. */
    public CheckpointSettings settingsOf(DeployedTopology topology) {
        try {
            return defaults.overriddenBy(SPECS.read(topology.spec()).checkpointing());
        } catch (TopologyValidationException | IllegalArgumentException e) {
            LOG.warn("The stored spec of topology '{}' has unusable checkpoint settings ({}); using the router's",
                    topology.id(), e.getMessage());
            return defaults;
        }
    }

    private void remove(TopologyId id) {
        stopCoordinator(id);
        paused.remove(id);
        notStarted.remove(id);
        nextIds.remove(id);
        lastCompleted.remove(id);
        failures.forget(id);
        removalListeners.forEach(listener -> listener.accept(id));
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

    /**
     * Stops checkpointing a topology (pending ones fail as CANCELLED) until {@link #resume}; pausing a paused one
     * only replaces the reason.
     *
     * @param reason why, for the checkpoint listing: what is going on and when checkpointing resumes
     */
    public synchronized void pause(TopologyId id, String reason) {
        paused.put(id, reason);
        stopCoordinator(id);
    }

    /** Whether the topology's checkpointing is paused ({@link #pause}) and not resumed since. */
    public boolean isPaused(TopologyId id) {
        return paused.containsKey(id);
    }

    /**
     * Checkpoints the topology again, as the repository now has it, with ids after every one used before. If the
     * store cannot be read for the first id, the next tick tries again.
     */
    public synchronized void resume(TopologyId id) {
        if (paused.remove(id) == null && coordinators.containsKey(id)) {
            return; // not paused: its coordinator keeps running (a second one would orphan the first's checkpoints)
        }
        topologies.find(id).ifPresent(this::tryCreate);
    }

    /**
     * The id of the latest checkpoint triggered for the topology (0 if none): recovered sources send the barriers
     * up to it that they missed, since tasks downstream may be aligning on it.
     */
    public synchronized long lastTriggeredId(TopologyId id) {
        CheckpointCoordinator coordinator = coordinators.get(id);
        return coordinator != null ? coordinator.lastTriggeredId() : nextIds.getOrDefault(id, 1L) - 1;
    }

    public Optional<CheckpointCoordinator> coordinator(TopologyId id) {
        return Optional.ofNullable(coordinators.get(id));
    }

    /** The latest checkpoint completed for the topology by this router, across its deployments. */
    public Optional<CompletedCheckpoint> lastCompleted(TopologyId id) {
        return coordinator(id).flatMap(CheckpointCoordinator::lastCompleted)
                .or(() -> Optional.ofNullable(lastCompleted.get(id)));
    }

    /**
     * Triggers a checkpoint of a deployed topology now, whatever its interval, unless it is paused, not running, or
     * at its maximum of pending checkpoints.
     *
     * @throws CheckpointRecordsException if the store could not be reached to start it (or to read the ids)
     */
    public synchronized TriggerResult triggerNow(TopologyId id) {
        DeployedTopology topology = topologies.find(id).orElse(null);
        if (topology == null) {
            return new TriggerResult.Refused("Topology '" + id + "' is not deployed; see GET /api/v1/topologies");
        }
        String pauseReason = paused.get(id);
        if (pauseReason != null) {
            return new TriggerResult.Refused("Checkpointing of topology '" + id + "' is paused: " + pauseReason);
        }
        Optional<String> notRunning = progress.whyNotRunning(topology);
        if (notRunning.isPresent()) {
            return new TriggerResult.Refused("Topology '" + id + "' is not running, so a checkpoint could not"
                    + " complete: " + notRunning.get() + "; retry once it runs again");
        }
        CheckpointCoordinator coordinator = coordinators.get(id);
        return (coordinator != null ? coordinator : create(topology)).triggerNow();
    }

    /** How the topology is checkpointed now; empty if it is not deployed. */
    public Optional<CheckpointingStatus> status(TopologyId id) {
        Optional<DeployedTopology> topology = topologies.find(id);
        if (topology.isEmpty()) {
            return Optional.empty();
        }
        int unrecorded = failures.count(id);
        CheckpointCoordinator coordinator = coordinators.get(id);
        String pauseReason = paused.get(id);
        if (pauseReason != null || coordinator == null) {
            State state = pauseReason != null ? State.PAUSED : State.NOT_STARTED;
            String reason = pauseReason != null ? pauseReason : notStarted.getOrDefault(id, "not ticked yet");
            return Optional.of(new CheckpointingStatus(state, reason, settingsOf(topology.get()), 0, unrecorded));
        }
        String notRunning = coordinator.notRunningReason();
        return Optional.of(new CheckpointingStatus(notRunning == null ? State.ACTIVE : State.SKIPPING, notRunning,
                coordinator.settings(), coordinator.skippedCount(), unrecorded));
    }

    /** How many failed checkpoints of the topology wait for the store to answer again. */
    public int unrecordedFailures(TopologyId id) {
        return failures.count(id);
    }

    public void acknowledge(TopologyId id, long checkpointId, TaskAck ack) {
        coordinator(id).ifPresent(c -> c.acknowledge(checkpointId, ack));
    }

    public void decline(TopologyId id, long checkpointId, TaskId task, HostId host, int incarnation, String reason) {
        coordinator(id).ifPresent(c -> c.decline(checkpointId, task, host, incarnation, reason));
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (executor != null) {
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
