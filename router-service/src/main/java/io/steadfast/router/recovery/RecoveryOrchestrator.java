package io.steadfast.router.recovery;

import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.placement.TaskPlacer;
import io.steadfast.router.placement.UnservedKinds;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sequences the router's recoveries. When a host is detected DEAD, every topology with a task on a host that is not
 * LIVE (the dead one, or one an earlier recovery could not get past) is recovered: the recovery is recorded in the
 * {@link RecoveryLog} and the topology's checkpointing paused, then its lost tasks restored in place
 * ({@link LocalRecovery}, for a LOCAL-mode topology) or, if that cannot be done, the whole topology redeployed
 * ({@link GlobalRecovery}). Around that: {@link InPlaceTaskRestarts} restarts tasks that fail on live hosts,
 * {@link CatchUpEscalation} escalates recoveries that do not catch up, {@link FailedRecoveryRetries} retries failed
 * ones, {@link RouterRestartResumption} takes over those a router restart interrupted, and {@link SuspicionPrefetch}
 * prepares recoveries while a host is only suspected. Runs on its own thread, {@code steadfast-router-recovery}, so
 * one recovery at a time.
 */
public final class RecoveryOrchestrator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryOrchestrator.class);
    /** How long after a failed recovery attempt the next one is made, while tasks still sit on dead hosts. */
    static final Duration RETRY_BACKOFF = Duration.ofSeconds(2);
    /** How often the router checks its recoveries' progress (catch-up, escalation), once started. */
    public static final Duration PROGRESS_CHECK = Duration.ofMillis(100);

    private final RecoveryContext context;
    private final TopologyProgress progress;
    private final LocalRecoverer recoverer;
    private final GlobalRecovery global;
    private final LocalRecovery local;
    private final SuspicionPrefetch prefetch;
    private final RouterRestartResumption resumption;
    private final FailedRecoveryRetries retries;
    private final InPlaceTaskRestarts taskRestarts;
    private final CatchUpEscalation escalation;
    private final RecoveryForecaster forecaster;
    private volatile @Nullable ScheduledExecutorService executor;
    /** Detected failures not yet handled, by host: queued for the recovery thread or being recovered. */
    private final Map<HostId, Integer> failuresBeingHandled = new ConcurrentHashMap<>();

    private RecoveryOrchestrator(Builder builder) {
        context = new RecoveryContext(builder.topologies, builder.detector, builder.coordinators, builder.log,
                builder.clock);
        progress = builder.progress;
        recoverer = new LocalRecoverer(builder.topologies, builder.hostClient, builder.standby, builder.clock);
        global = new GlobalRecovery(context, builder.placer, builder.standby, builder.hostClient, builder.records,
                progress);
        local = new LocalRecovery(context, recoverer);
        prefetch = new SuspicionPrefetch(context, recoverer, this::onRecoveryThread);
        resumption = new RouterRestartResumption(context, this::recover);
        retries = new FailedRecoveryRetries(context, this::recover);
        taskRestarts = new InPlaceTaskRestarts(context, progress, builder.hostClient, this::recover);
        escalation = new CatchUpEscalation(context, this::recover);
        forecaster = builder.forecaster;
        builder.coordinators.onCompleted((topology, checkpointId, hosts) -> checkpointCompleted(topology,
                checkpointId));
    }

    /** How often each operator's tasks failed on a live host and were restarted in place. */
    public TaskFailureCounts taskFailures() {
        return taskRestarts.failures();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Listens to the detector and checks catch-up every {@code period}, on {@code steadfast-router-recovery}. */
    public synchronized void start(Duration period) {
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(
                new DaemonThreads("steadfast-router-recovery"));
        executor = started;
        context.detector().onFailure(failure -> {
            failuresBeingHandled.merge(failure.host(), 1, Integer::sum);
            started.execute(() -> {
                try {
                    guarded(() -> recover(failure));
                } finally {
                    failuresBeingHandled.computeIfPresent(failure.host(), (host, n) -> n == 1 ? null : n - 1);
                }
            });
        });
        started.scheduleWithFixedDelay(() -> guarded(this::checkProgress), period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
        started.scheduleWithFixedDelay(() -> guarded(this::retryFailed), RETRY_BACKOFF.toMillis(),
                RETRY_BACKOFF.toMillis() / 2, TimeUnit.MILLISECONDS);
    }

    /**
     * Whether a detected failure of {@code host} is queued for the recovery thread or being recovered: its tasks may
     * still be placed on it in this router's records. Any thread.
     */
    public boolean isHandlingFailureOf(HostId host) {
        return failuresBeingHandled.containsKey(host);
    }

    /**
     * Once {@code restartGrace} after now, recovers the topologies that still have tasks on hosts that never
     * registered with this router (see {@link #recoverHostsNeverSeen}), then those whose recovery a router restart
     * interrupted. Call it once the router accepts requests (hosts cannot re-register before), after {@link #start}.
     */
    public synchronized void scheduleNeverSeenCheck(Duration restartGrace) {
        Instant readyAt = context.clock().instant();
        Objects.requireNonNull(executor, "start(...) first").schedule(() -> {
            guarded(() -> recoverHostsNeverSeen(readyAt));
            guarded(this::recoverInterrupted);
        }, restartGrace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * At start-up, before hosts re-register, takes over what the stored log says of recoveries (see
     * {@link RouterRestartResumption#resumeAfterRestart}).
     *
     * @return the recoveries abandoned
     */
    public List<Recovery> resumeAfterRestart() {
        return resumption.resumeAfterRestart();
    }

    /**
     * Recovers afresh each topology whose recovery {@link #resumeAfterRestart} abandoned. Called once the restart
     * grace has passed; from then on {@link #retryFailed} also retries recoveries that failed before the restart.
     */
    public void recoverInterrupted() {
        retries.restartGraceOver();
        resumption.recoverInterrupted();
    }

    /** Takes every host of a placement that has not registered since {@code startedAt} as failed, and recovers. */
    public void recoverHostsNeverSeen(Instant startedAt) {
        resumption.recoverHostsNeverSeen(startedAt, this::recover);
    }

    /** Recovers every topology that has a task on a host that is not LIVE; called for each detected failure. */
    public void recover(DetectedFailure failure) {
        prefetch.forget(failure.host());
        for (DeployedTopology topology : context.topologies().all()) {
            List<TaskId> lost = LostTasks.onDeadHosts(topology, context.detector());
            if (!lost.isEmpty()) {
                recover(new RecoveryRequest(topology, failure, lost));
            }
        }
    }

    /** See {@link SuspicionPrefetch#prefetchFor}. Returns at once; any thread. */
    public void prefetchFor(HostId suspect) {
        prefetch.prefetchFor(suspect);
    }

    /** See {@link SuspicionPrefetch#checkpointCompleted}. Returns at once; any thread. */
    void checkpointCompleted(TopologyId topology, long checkpointId) {
        prefetch.checkpointCompleted(topology, checkpointId);
    }

    /** Retries the recoveries that failed (see {@link FailedRecoveryRetries}). */
    public void retryFailed() {
        retries.retryFailed();
    }

    /**
     * Restarts the tasks that failed or miss checkpoints on live hosts, then marks RECOVERED each recovery whose tasks
     * or sinks have caught up (from fresh heartbeats), abandons those whose topology was cancelled, and escalates those
     * stuck.
     */
    public void checkProgress() {
        taskRestarts.restartFailedTasks();
        taskRestarts.restartTasksMissingCheckpoints();
        for (Recovery recovery : context.log().recovering()) {
            if (recovery.restoredAt() == null) {
                continue;
            }
            Optional<DeployedTopology> found = context.topologies().find(recovery.topology());
            if (found.isEmpty()) {
                context.log().save(recovery.abandoned("TOPOLOGY_CANCELLED", "Topology '" + recovery.topology()
                        + "' was cancelled before it caught up; was: " + recovery.message()));
                continue;
            }
            if (LocalRecovery.isRestoredInPlace(recovery)) {
                local.checkCatchUp(recovery, found.get());
                escalation.escalateIfStuck(recovery, found.get());
            } else if (!global.checkCaughtUp(recovery, found.get())) {
                escalation.escalateIfStuck(recovery, found.get());
            }
        }
    }

    /**
     * Starts a recovery: records it with what the delay model predicts, pauses the topology's checkpointing, then
     * recovers the lost tasks in place if the topology's mode is LOCAL (or AUTO and LOCAL is predicted to be faster)
     * and that can be done, else the whole topology globally.
     */
    private void recover(RecoveryRequest request) {
        DeployedTopology topology = request.topology();
        DetectedFailure failure = request.failure();
        RecoveryLog log = context.log();
        retries.attempted(topology.id(), context.clock().instant());
        Optional<RecoveryForecasts> forecast = forecast(topology, failure);
        boolean auto = topology.plan().recoveryMode() == RecoveryMode.AUTO && !request.global();
        // the mode it sets out in; a local recovery that falls back to a global one records that when it ends
        RecoveryMode intended = request.global() ? RecoveryMode.GLOBAL
                : auto ? AutoMode.choose(forecast) : topology.plan().recoveryMode();
        Recovery recovery = Recovery.builder().id(log.nextId()).topology(topology.id()).tasks(request.lost())
                .failure(failure.host(), failure.lastHeartbeat(), failure.detectedAt())
                .detection(failure.detectionTime().toMillis(), failure.cause())
                .restoration(intended, topology.plan().epoch(), progress.sinkRecordsIn(topology))
                .forecast(forecast.map(f -> auto ? f.chose(intended.name()) : f).orElse(null))
                .status(RecoveryStatus.RECOVERING, null, auto ? AutoMode.describe(intended, forecast) : "recovering")
                .build();
        if (auto) {
            LOG.info("Recovery {} of '{}': {}", recovery.id(), topology.id(), recovery.message());
        }
        log.supersede(recovery);
        log.saveWithoutWaiting(recovery);
        context.coordinators().pause(topology.id(), "recovery " + recovery.id() + " is in progress (host "
                + failure.host() + " failed); checkpointing resumes once the topology is redeployed");
        Optional<CompletedCheckpoint> knownCompleted = context.coordinators().lastCompleted(topology.id());
        List<RegisteredHost> live = context.detector().liveHosts();
        List<HostKind> unserved = UnservedKinds.of(topology.plan(), live);
        if (!unserved.isEmpty()) {
            failForWantOfHosts(recovery, request, unserved);
            return;
        }
        if (intended == RecoveryMode.LOCAL) {
            Optional<Recovery> fellBack = local.recover(topology, recovery, knownCompleted, live, request.onto());
            if (fellBack.isEmpty()) {
                return;
            }
            recovery = fellBack.get();
        }
        global.redeploy(topology, recovery, knownCompleted, live);
    }

    /** What the model predicts for this failure; none if it cannot tell (a prediction never stops a recovery). */
    private Optional<RecoveryForecasts> forecast(DeployedTopology topology, DetectedFailure failure) {
        try {
            return forecaster.forecast(topology, failure);
        } catch (RuntimeException e) {
            LOG.warn("No forecast for the recovery of '{}' after losing {}: {}", topology.id(), failure.host(),
                    e.toString());
            return Optional.empty();
        }
    }

    /**
     * Fails the recovery for want of LIVE hosts of the {@code unserved} kinds (a topology with vote tasks needs a voter
     * as well as PE hosts); it is retried every {@link #RETRY_BACKOFF} until they are there.
     */
    private void failForWantOfHosts(Recovery recovery, RecoveryRequest request, List<HostKind> unserved) {
        TopologyId topology = request.topology().id();
        String none = unserved.stream().map(kind -> kind + " host").collect(Collectors.joining(" and no "));
        String start = unserved.stream().map(HostKind::service).collect(Collectors.joining(" and a "));
        context.log().save(recovery.failed("NO_LIVE_HOSTS", "Topology '" + topology + "' lost tasks "
                + request.lost() + " with host " + request.failure().host() + " and no " + none + " is LIVE to run"
                + " them; start a " + start + " pointed at this router; recovery is retried every "
                + RETRY_BACKOFF.toSeconds() + " s"));
        context.coordinators().pause(topology, "recovery " + recovery.id() + " failed (NO_LIVE_HOSTS): no " + none
                + " is LIVE to run the topology; checkpointing resumes once a later recovery succeeds (retried every "
                + RETRY_BACKOFF.toSeconds() + " s); start a " + start + " pointed at this router");
        LOG.error("Recovery of '{}' failed: no LIVE {}", topology, none);
    }

    /** Runs {@code step} on the recovery thread, or here if it is not started (tests). */
    private void onRecoveryThread(Runnable step) {
        ScheduledExecutorService recoveries = executor;
        if (recoveries == null) {
            guarded(step);
        } else {
            recoveries.execute(() -> guarded(step));
        }
    }

    private static void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.error("Recovery step failed", e);
        }
    }

    @Override
    public synchronized void close() throws InterruptedException {
        recoverer.close();
        ScheduledExecutorService started = executor;
        if (started != null) {
            started.shutdownNow();
            started.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /**
     * Builds a {@link RecoveryOrchestrator}; every collaborator but {@link #standby} (none by default) is required,
     * checked on {@link #build}. Not thread-safe.
     */
    public static final class Builder {

        private @Nullable TopologyRepository topologies;
        private @Nullable HeartbeatFailureDetector detector;
        private @Nullable TaskPlacer placer;
        private @Nullable HostClient hostClient;
        private @Nullable CheckpointRecords records;
        private @Nullable CheckpointCoordinators coordinators;
        private @Nullable TopologyProgress progress;
        private @Nullable RecoveryLog log;
        private @Nullable Clock clock;
        private StandbyHosts standby = new StandbyHosts(0);
        private RecoveryForecaster forecaster = RecoveryForecaster.NONE;

        private Builder() {
        }

        public Builder topologies(TopologyRepository topologies) {
            this.topologies = topologies;
            return this;
        }

        public Builder detector(HeartbeatFailureDetector detector) {
            this.detector = detector;
            return this;
        }

        public Builder placer(TaskPlacer placer) {
            this.placer = placer;
            return this;
        }

        public Builder hostClient(HostClient hostClient) {
            this.hostClient = hostClient;
            return this;
        }

        /** The stored checkpoint records and this router's coordinators of each topology's checkpoints. */
        public Builder checkpoints(CheckpointRecords records, CheckpointCoordinators coordinators) {
            this.records = records;
            this.coordinators = coordinators;
            return this;
        }

        public Builder progress(TopologyProgress progress) {
            this.progress = progress;
            return this;
        }

        public Builder log(RecoveryLog log) {
            this.log = log;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** The hosts kept free for local recovery. */
        public Builder standby(StandbyHosts standby) {
            this.standby = standby;
            return this;
        }

        /** What predicts each recovery when its host fails, for its record; none unless set. */
        public Builder forecaster(RecoveryForecaster forecaster) {
            this.forecaster = Objects.requireNonNull(forecaster, "forecaster");
            return this;
        }

        /** @throws IllegalStateException naming each collaborator not given */
        public RecoveryOrchestrator build() {
            List<String> missing = new ArrayList<>();
            requireGiven(topologies, "topologies", missing);
            requireGiven(detector, "detector", missing);
            requireGiven(placer, "placer", missing);
            requireGiven(hostClient, "hostClient", missing);
            requireGiven(records == null ? null : coordinators, "checkpoints", missing);
            requireGiven(progress, "progress", missing);
            requireGiven(log, "log", missing);
            requireGiven(clock, "clock", missing);
            if (!missing.isEmpty()) {
                throw new IllegalStateException("A RecoveryOrchestrator needs " + missing
                        + "; give each to its builder method");
            }
            return new RecoveryOrchestrator(this);
        }

        private static void requireGiven(@Nullable Object collaborator, String name, List<String> missing) {
            if (collaborator == null) {
                missing.add(name);
            }
        }
    }
}
