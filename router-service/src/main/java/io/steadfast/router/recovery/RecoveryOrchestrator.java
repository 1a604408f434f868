package io.steadfast.router.recovery;

import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.placement.TaskPlacer;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.RecoveryCatchUp;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Global recovery: when a host is detected DEAD, every topology with a task on a host that is not LIVE (the dead
 * one, or one an earlier recovery could not get past) is cancelled on the live hosts, placed anew on them and
 * redeployed with the next epoch, every task restored from the latest completed checkpoint (or from scratch if
 * none completed); its checkpointing pauses meanwhile and resumes with higher ids. Each recovery is recorded in
 * the {@link RecoveryLog}, and marked RECOVERED once the sinks have caught up with what they had taken in before
 * the failure. A recovery that a router restart interrupted before it had redeployed is ABANDONED at start-up
 * ({@link #resumeAfterRestart}) and its topology recovered afresh once hosts had time to re-register. Runs on its
 * own thread, {@code steadfast-router-recovery}, so one recovery at a time.
 */
public final class RecoveryOrchestrator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryOrchestrator.class);
    /** How long after a failed recovery attempt the next one is made, while tasks still sit on dead hosts. */
    static final Duration RETRY_BACKOFF = Duration.ofSeconds(2);
    /**
     * How long checkpointing of a topology waits, after a local recovery restored its lost tasks, for them to catch
     * up. Checkpoints wait because their barriers would make tasks downstream of a recovered one align: a live task
     * would stop taking input from its live upstreams until the recovered one, still replaying, sent its barrier.
     */
    static final Duration CHECKPOINTS_HELD_AT_MOST = Duration.ofSeconds(10);
    /**
     * How long after a host was suspected its tasks' snapshots are fetched ahead in each checkpoint that completes: a
     * suspicion is decided within the minimum silence and the probe's timeout (300 ms each by default).
     */
    static final Duration SUSPICION_KEPT = Duration.ofSeconds(2);

    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector detector;
    private final TaskPlacer placer;
    private final HostClient hostClient;
    private final CheckpointRecords records;
    private final CheckpointCoordinators coordinators;
    private final TopologyProgress progress;
    private final RecoveryLog log;
    private final Clock clock;
    private final StandbyHosts standby;
    private final LocalRecoverer local;
    /** Records taken in by each task that kept running, when a local recovery started; by recovery id. */
    private final Map<Long, Map<String, Long>> survivorsAtStart = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService executor;
    /** The hosts suspected lately, with when: see {@link #checkpointCompleted}. */
    private final Map<HostId, Instant> suspected = new ConcurrentHashMap<>();
    private final Map<TopologyId, Instant> lastAttempt = new ConcurrentHashMap<>();
    /** Recoveries abandoned at start-up because the router restarted before they had redeployed. */
    private final List<Recovery> interrupted = new CopyOnWriteArrayList<>();
    /** The failure reason of a topology whose task kept failing on a live host: never retried. */
    static final String TASK_FAILED_REPEATEDLY = "TASK_FAILED_REPEATEDLY";
    /** How many checkpoints in a row a live task may miss before it is restarted in place. */
    static final int EXPIRIES_BEFORE_RESTART = 3;
    /** How long restored tasks may take to catch up before their recovery is escalated (LOCAL to GLOBAL). */
    static final Duration CATCH_UP_AT_MOST = Duration.ofSeconds(60);
    private final TaskRestartPolicy restarts;
    /** Topologies that failed for good (a task out of restarts). */
    private final java.util.Set<TopologyId> givenUp = ConcurrentHashMap.newKeySet();
    /** Detected failures not yet handled, by host: queued for the recovery thread or being recovered. */
    private final Map<HostId, Integer> failuresBeingHandled = new ConcurrentHashMap<>();
    /** Whether hosts have had time to re-register since start-up (see {@link #recoverInterrupted}). */
    private volatile boolean restartGraceOver;

    public RecoveryOrchestrator(TopologyRepository topologies, HeartbeatFailureDetector detector, TaskPlacer placer,
                                HostClient hostClient, CheckpointRecords records, CheckpointCoordinators coordinators,
                                TopologyProgress progress, RecoveryLog log, Clock clock) {
        this(topologies, detector, placer, hostClient, records, coordinators, progress, log, clock,
                new StandbyHosts(0));
    }

    /** @param standby the hosts kept free for local recovery */
    public RecoveryOrchestrator(TopologyRepository topologies, HeartbeatFailureDetector detector, TaskPlacer placer,
                                HostClient hostClient, CheckpointRecords records, CheckpointCoordinators coordinators,
                                TopologyProgress progress, RecoveryLog log, Clock clock, StandbyHosts standby) {
        this.standby = standby;
        this.restarts = new TaskRestartPolicy(5, Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofSeconds(30));
        this.local = new LocalRecoverer(topologies, hostClient, standby, clock);
        this.topologies = topologies;
        this.detector = detector;
        this.placer = placer;
        this.hostClient = hostClient;
        this.records = records;
        this.coordinators = coordinators;
        this.progress = progress;
        this.log = log;
        this.clock = clock;
        coordinators.onCompleted((topology, checkpointId, hosts) -> checkpointCompleted(topology, checkpointId));
    }

    /** Listens to the detector and checks catch-up every {@code period}, on {@code steadfast-router-recovery}. */
    public synchronized void start(Duration period) {
        executor = Executors.newSingleThreadScheduledExecutor(new DaemonThreads("steadfast-router-recovery"));
        detector.onFailure(failure -> {
            failuresBeingHandled.merge(failure.host(), 1, Integer::sum);
            executor.execute(() -> {
                try {
                    guarded(() -> recover(failure));
                } finally {
                    failuresBeingHandled.computeIfPresent(failure.host(), (host, n) -> n == 1 ? null : n - 1);
                }
            });
        });
        executor.scheduleWithFixedDelay(() -> guarded(this::checkProgress), period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(() -> guarded(this::retryFailed), RETRY_BACKOFF.toMillis(),
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
     * registered with this router (see {@link #recoverHostsNeverSeen}). Call it once the router accepts requests
     * (hosts cannot re-register before), after {@link #start}.
     */
    public synchronized void scheduleNeverSeenCheck(Duration restartGrace) {
        Instant readyAt = clock.instant();
        executor.schedule(() -> {
            guarded(() -> recoverHostsNeverSeen(readyAt));
            guarded(this::recoverInterrupted);
        }, restartGrace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * At start-up, before hosts re-register, takes over what the stored log says of recoveries:
     * <ul>
     * <li>every recovery still RECOVERING without a completed redeployment is marked ABANDONED (reason
     * ROUTER_RESTARTED). Its topology may be cancelled on some hosts and redeployed on others, in either epoch, which
     * host reports cannot tell apart (they carry no epoch); so its checkpointing is paused and
     * {@link #recoverInterrupted} recovers it afresh from the latest completed checkpoint;</li>
     * <li>a topology whose latest recovery FAILED has its checkpointing paused; {@link #retryFailed} retries it once
     * the restart grace has passed;</li>
     * <li>a RECOVERING recovery that had redeployed is left as it is: the topology runs in its new epoch, and
     * {@link #checkProgress} marks it RECOVERED once the re-registered hosts report the sinks caught up.</li>
     * </ul>
     *
     * @return the recoveries abandoned
     */
    public List<Recovery> resumeAfterRestart() {
        List<Recovery> abandoned = new ArrayList<>();
        for (Recovery recovery : log.recovering()) {
            if (recovery.restoredAt() != null) {
                continue;
            }
            Recovery marked = recovery.abandoned("ROUTER_RESTARTED", "The router restarted during this recovery,"
                    + " before topology '" + recovery.topology() + "' was redeployed; a fresh recovery starts once"
                    + " hosts have re-registered (was: " + recovery.message() + ")");
            log.save(marked);
            coordinators.pause(recovery.topology(), "recovery " + recovery.id() + " was interrupted by a router"
                    + " restart; checkpointing resumes once a fresh recovery has redeployed the topology");
            abandoned.add(marked);
            LOG.warn("Recovery {} of '{}' was interrupted by a router restart; recovering the topology afresh once"
                    + " hosts have re-registered", recovery.id(), recovery.topology());
        }
        interrupted.addAll(abandoned);
        for (DeployedTopology topology : topologies.all()) {
            latestOf(topology.id()).filter(latest -> latest.status() == RecoveryStatus.FAILED).ifPresent(failed ->
                    coordinators.pause(topology.id(), "recovery " + failed.id() + " had failed ("
                            + failed.failureReason() + ") before the router restarted; checkpointing resumes once a"
                            + " retry succeeds, after hosts have re-registered"));
        }
        return abandoned;
    }

    /**
     * Recovers afresh each topology whose recovery {@link #resumeAfterRestart} abandoned, unless a later recovery of
     * it has started since (e.g. for a host that never re-registered) or it was cancelled. Called once the restart
     * grace has passed; from then on {@link #retryFailed} also retries recoveries that failed before the restart.
     */
    public void recoverInterrupted() {
        restartGraceOver = true;
        for (Recovery abandoned : List.copyOf(interrupted)) {
            interrupted.remove(abandoned);
            Optional<DeployedTopology> topology = topologies.find(abandoned.topology());
            Optional<Recovery> latest = latestOf(abandoned.topology());
            if (topology.isEmpty() || latest.isPresent() && latest.get().id() != abandoned.id()) {
                continue;
            }
            List<TaskId> lost = tasksOnDeadHosts(topology.get());
            recover(topology.get(), new DetectedFailure(abandoned.failedHost(), abandoned.lastHeartbeat(),
                    abandoned.detectedAt()), lost.isEmpty() ? abandoned.tasks() : lost);
        }
    }

    private Optional<Recovery> latestOf(TopologyId topology) {
        return log.all().stream().filter(r -> r.topology().equals(topology))
                .max(java.util.Comparator.comparingLong(Recovery::id));
    }

    /**
     * After a router restart the topologies come back from the store, but hosts only re-register as their next
     * heartbeat is refused; a host that died while the router was down never does, so the detector never sees
     * it go from LIVE to DEAD. Called once the restart grace has passed: every host of a placement that has
     * not registered since is taken as failed (last heard of at {@code startedAt}, when the router became ready) and its topologies recovered.
     */
    public void recoverHostsNeverSeen(Instant startedAt) {
        java.util.Set<HostId> unknown = new java.util.TreeSet<>();
        for (DeployedTopology topology : topologies.all()) {
            topology.placement().values().stream().filter(host -> detector.host(host).isEmpty()).forEach(unknown::add);
        }
        for (HostId host : unknown) {
            LOG.warn("Host {} runs tasks of a stored topology but has not registered since this router started at {};"
                    + " treating it as DEAD", host, startedAt);
            recover(new DetectedFailure(host, startedAt, clock.instant()));
        }
    }

    private static void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.error("Recovery step failed", e);
        }
    }

    /** Recovers every topology that has a task on a host that is not LIVE; called for each detected failure. */
    public void recover(DetectedFailure failure) {
        suspected.remove(failure.host());
        for (DeployedTopology topology : topologies.all()) {
            List<TaskId> lost = tasksOnDeadHosts(topology);
            if (!lost.isEmpty()) {
                recover(topology, failure, lost);
            }
        }
    }

    /**
     * A host is suspected (a peer lost its data-plane connection to it and it did not answer its probe) and is DEAD if
     * it also misses its heartbeat: the hosts that would recover its tasks of each LOCAL-mode topology fetch their
     * snapshots meanwhile, so that the recovery that may follow finds them there. Those of the latest completed
     * checkpoint, and those of every pending one that the suspected host's tasks all acknowledged: the other tasks'
     * acks may still complete it while the failure is being confirmed, and the recovery then restores from it. One
     * that completes later while the host is suspected has them fetched then ({@link #checkpointCompleted}): acks
     * the host sent just before it died may reach this router only after the suspicion. Returns at once; any thread.
     */
    public void prefetchFor(HostId suspect) {
        suspected.put(suspect, clock.instant());
        for (DeployedTopology topology : topologies.all()) {
            List<TaskId> lost = localTasksOn(topology, suspect);
            if (lost.isEmpty()) {
                continue;
            }
            List<Long> checkpoints = new ArrayList<>();
            restorableInPlace(topology, coordinators.lastCompleted(topology.id()))
                    .ifPresent(completed -> checkpoints.add(completed.checkpointId()));
            coordinators.coordinator(topology.id()).filter(coordinator -> coordinator.epoch() == topology.plan().epoch())
                    .ifPresent(coordinator -> checkpoints.addAll(coordinator.pendingAcknowledgedBy(lost)));
            List<RegisteredHost> live = liveHostsBut(suspect);
            if (!checkpoints.isEmpty() && !live.isEmpty()) {
                local.prefetch(topology, lost, checkpoints, live, true);
            }
        }
    }

    /**
     * Checkpoint {@code checkpointId} of a topology completed: the snapshots of its tasks on a host suspected in the
     * last {@link #SUSPICION_KEPT} are fetched ahead in it (their decisions were, with the suspicion), for the recovery
     * that may follow to restore from it. Returns at once; any thread (a coordinator's, under its lock).
     */
    void checkpointCompleted(TopologyId topologyId, long checkpointId) {
        if (suspected.isEmpty()) {
            return;
        }
        Runnable prefetch = () -> guarded(() -> {
            Instant now = clock.instant();
            suspected.values().removeIf(since -> Duration.between(since, now).compareTo(SUSPICION_KEPT) > 0);
            topologies.find(topologyId).ifPresent(topology -> suspected.keySet().forEach(suspect -> {
                List<TaskId> lost = localTasksOn(topology, suspect);
                List<RegisteredHost> live = liveHostsBut(suspect);
                if (!lost.isEmpty() && !live.isEmpty()) {
                    local.prefetch(topology, lost, List.of(checkpointId), live, false);
                }
            }));
        });
        ScheduledExecutorService recoveries = executor;
        if (recoveries == null) {
            prefetch.run(); // not started (tests)
        } else {
            recoveries.execute(prefetch);
        }
    }

    /** The tasks of a LOCAL-mode topology on {@code host}, sorted; none for a GLOBAL-mode one. */
    private static List<TaskId> localTasksOn(DeployedTopology topology, HostId host) {
        if (topology.plan().recoveryMode() != RecoveryMode.LOCAL) {
            return List.of();
        }
        return topology.placement().entrySet().stream().filter(placed -> placed.getValue().equals(host))
                .map(Map.Entry::getKey).sorted().toList();
    }

    private List<RegisteredHost> liveHostsBut(HostId host) {
        return detector.liveHosts().stream().filter(live -> !live.id().equals(host)).toList();
    }

    /**
     * The checkpoint lost tasks restore from in place: the latest this router's coordinator completed, if on the
     * topology's current epoch. What is fetched ahead for a suspected host and what its recovery restores agree by
     * coming from here.
     */
    private static Optional<CompletedCheckpoint> restorableInPlace(DeployedTopology topology,
                                                                   Optional<CompletedCheckpoint> completed) {
        return completed.filter(done -> done.epoch() == topology.plan().epoch());
    }

    private List<TaskId> tasksOnDeadHosts(DeployedTopology topology) {
        List<TaskId> lost = new ArrayList<>();
        topology.placement().forEach((task, host) -> {
            Optional<RegisteredHost> registered = detector.host(host);
            if (registered.isEmpty() || detector.statusOf(registered.get()) == HostStatus.DEAD) {
                lost.add(task);
            }
        });
        lost.sort(null);
        return lost;
    }

    /**
     * Tries again, {@link #RETRY_BACKOFF} after the last attempt, to recover each topology whose latest recovery
     * FAILED (no live host then, or a host refused the redeployment): a host that registers later, or a transient
     * refusal, no longer leaves the topology broken until the next failure happens to be detected. It is retried
     * even when every host of its placement is LIVE again (they came back): a failed attempt may have cancelled the
     * topology on some of them, and until a recovery succeeds the topology takes no checkpoints. A recovery that
     * failed before a router restart is retried once the restart grace has passed.
     */
    public void retryFailed() {
        Instant now = clock.instant();
        for (DeployedTopology topology : topologies.all()) {
            Instant last = lastAttempt.get(topology.id());
            if (last == null ? !restartGraceOver : Duration.between(last, now).compareTo(RETRY_BACKOFF) < 0) {
                continue;
            }
            latestOf(topology.id()).filter(latest -> latest.status() == RecoveryStatus.FAILED)
                    .filter(latest -> !TASK_FAILED_REPEATEDLY.equals(latest.failureReason()))
                    .ifPresent(latest -> {
                        LOG.info("Retrying the recovery of '{}' (last attempt failed: {})", topology.id(),
                                latest.failureReason());
                        List<TaskId> lost = tasksOnDeadHosts(topology);
                        recover(topology, new DetectedFailure(latest.failedHost(), latest.lastHeartbeat(),
                                latest.detectedAt(), latest.detectionCause() == null
                                ? DetectionCause.HEARTBEAT_TIMEOUT : latest.detectionCause()),
                                lost.isEmpty() ? latest.tasks() : lost);
                    });
        }
    }

    private void recover(DeployedTopology topology, DetectedFailure failure, List<TaskId> lost) {
        recover(topology, failure, lost, null, false);
    }

    private void recover(DeployedTopology topology, DetectedFailure failure, List<TaskId> lost, @Nullable HostId onto) {
        recover(topology, failure, lost, onto, false);
    }

    /**
     * @param onto   the live host to restart every lost task on (its tasks failed), or null to place them anew
     * @param global whether to recover globally whatever the topology's recovery mode (an escalation)
     */
    private void recover(DeployedTopology topology, DetectedFailure failure, List<TaskId> lost, @Nullable HostId onto,
                         boolean global) {
        lastAttempt.put(topology.id(), clock.instant());
        long baseline = progress.sinkRecordsIn(topology);
        // the mode it sets out in; a local recovery that falls back to a global one records that when it ends
        RecoveryMode intended = global ? RecoveryMode.GLOBAL : topology.plan().recoveryMode();
        Recovery started = new Recovery(log.nextId(), topology.id(), failure.host(), lost, topology.plan().epoch(),
                null, failure.lastHeartbeat(), failure.detectedAt(), null, null, failure.detectionTime().toMillis(),
                null, null, RecoveryStatus.RECOVERING, null, "recovering", baseline, failure.cause(), intended, null,
                null);
        Recovery recovery = started;
        supersedeRecovering(recovery);
        log.saveWithoutWaiting(recovery);
        coordinators.pause(topology.id(), "recovery " + recovery.id() + " is in progress (host " + failure.host()
                + " failed); checkpointing resumes once the topology is redeployed");
        Optional<CompletedCheckpoint> knownCompleted = coordinators.lastCompleted(topology.id());
        List<RegisteredHost> live = detector.liveHosts();
        if (live.isEmpty()) {
            log.save(recovery.failed("NO_LIVE_HOSTS", "Topology '" + topology.id() + "' lost tasks " + lost
                    + " with host " + failure.host() + " and no host is LIVE to run it; start a pe-host-service"
                    + " pointed at this router; recovery is retried every " + RETRY_BACKOFF.toSeconds() + " s"));
            coordinators.pause(topology.id(), "recovery " + recovery.id() + " failed (NO_LIVE_HOSTS): no host is"
                    + " LIVE to run the topology; checkpointing resumes once a later recovery succeeds (retried every "
                    + RETRY_BACKOFF.toSeconds() + " s); start a pe-host-service pointed at this router");
            LOG.error("Recovery of '{}' failed: no LIVE host", topology.id());
            return;
        }
        if (topology.plan().recoveryMode() == RecoveryMode.LOCAL && !global) {
            Optional<Recovery> fellBack = recoverLocally(topology, recovery, knownCompleted, live, onto);
            if (fellBack.isEmpty()) {
                return;
            }
            recovery = fellBack.get();
        }
        live.forEach(host -> cancelQuietly(host, topology));
        Map<HostId, RegisteredHost> byId = new TreeMap<>();
        standby.forPlacement(live, topologies.all()).forEach(host -> byId.put(host.id(), host));
        ExecutionPlan plan = topology.plan().withEpoch(topology.plan().epoch() + 1);
        Map<TaskId, HostId> placement = placer.place(plan, StandbyHosts.load(byId.keySet(), topologies.all(),
                topology.id()));
        OptionalLong restoreFrom = latestCompleted(topology, knownCompleted);
        DeployedTopology redeployed = topology.recovered(plan, placement, placement.keySet());
        String redeployFailure = deploy(redeployed, byId, restoreFrom);
        if (redeployFailure != null) {
            log.save(recovery.failed("REDEPLOY_FAILED", redeployFailure + "; retried in " + RETRY_BACKOFF.toSeconds() + " s"));
            coordinators.pause(topology.id(), "recovery " + recovery.id() + " failed (REDEPLOY_FAILED); checkpointing"
                    + " resumes once a later recovery succeeds (retried every " + RETRY_BACKOFF.toSeconds() + " s)");
            return;
        }
        topologies.replace(redeployed);
        coordinators.resume(topology.id());
        Instant restoredAt = clock.instant();
        long alreadyAtCheckpoint = knownCompleted.filter(done -> restoreFrom.isPresent()
                        && done.checkpointId() == restoreFrom.getAsLong() && done.epoch() == topology.plan().epoch())
                .map(CompletedCheckpoint::sinkRecordsAtTrigger).orElse(0L);
        String text = "Topology '" + topology.id() + "' redeployed as epoch " + plan.epoch() + " on "
                + new java.util.TreeSet<>(placement.values()) + (restoreFrom.isPresent()
                ? ", every task restored from checkpoint " + restoreFrom.getAsLong()
                : ", from the start (no checkpoint had completed)");
        log.save(recovery.restored(restoredAt, plan.epoch(), restoreFrom.isPresent() ? restoreFrom.getAsLong() : null,
                Math.max(0, baseline - alreadyAtCheckpoint), text));
        LOG.info("{} ({} ms after detection)", text, Duration.between(failure.detectedAt(), restoredAt).toMillis());
    }

    /**
     * Recovers the lost tasks of a LOCAL-mode topology in place (see {@link LocalRecoverer}), from the latest
     * checkpoint completed on its current epoch; checkpointing is paused meanwhile and resumes on the new placement.
     *
     * @return empty if it was recovered; else the recovery, marked with why it falls back to a global one
     */
    private Optional<Recovery> recoverLocally(DeployedTopology topology, Recovery recovery,
                                              Optional<CompletedCheckpoint> knownCompleted, List<RegisteredHost> live,
                                              @Nullable HostId onto) {
        Optional<CompletedCheckpoint> restorable = restorableInPlace(topology, knownCompleted);
        // The router's own last completion is what counts, not the checkpoint store's latest: only completions this
        // router announced let hosts truncate their logs, and it forgets them when it restarts (then nothing is
        // restorable and the recovery is global). A store one checkpoint ahead (a completion whose answer the router
        // did not get) leaves the logs whole from the router's checkpoint; a snapshot the store no longer holds makes
        // the target host refuse, and the recovery falls back to a global one.
        String reason = null;
        if (restorable.isEmpty()) {
            reason = "no checkpoint of epoch " + topology.plan().epoch() + " is known to have completed, so there is no"
                    + " snapshot the lost tasks could restore from while the others keep running";
        }
        if (reason == null) {
            reason = connectedAcrossLostHosts(topology, recovery.tasks()).orElse(null);
        }
        if (reason == null) {
            long checkpointId = restorable.get().checkpointId();
            LOG.info("Recovering tasks {} of '{}' in place from checkpoint {}, {} ms after detection",
                    recovery.tasks(), topology.id(), checkpointId,
                    Duration.between(recovery.detectedAt(), clock.instant()).toMillis());
            survivorsAtStart.put(recovery.id(), survivorRecords(topology, recovery.tasks()));
            try {
                LocalRecoveryMeasures measures = local.recover(topology, recovery.tasks(), checkpointId,
                        coordinators.lastTriggeredId(topology.id()), live, onto);
                Instant restoredAt = clock.instant();
                coordinators.pause(topology.id(), "tasks " + recovery.tasks() + " recovered in place (recovery "
                        + recovery.id() + ") are catching up; checkpointing resumes once they have, at the latest "
                        + CHECKPOINTS_HELD_AT_MOST.toSeconds() + " s after they were restored");
                String text = "Tasks " + recovery.tasks() + " of topology '" + topology.id() + "' recovered in place"
                        + " from checkpoint " + checkpointId + " on " + new java.util.TreeSet<>(measures.placedOn()
                        .values()) + " (snapshots " + measures.snapshotMillis() + " ms, logged decisions "
                        + measures.decisionMillis() + " ms / " + measures.decisionBytes() + " bytes, start "
                        + measures.startMillis() + " ms); every other task kept running";
                log.saveWithoutWaiting(recovery.restoredInPlace(restoredAt, checkpointId, measures, text));
                LOG.info("{} ({} ms after detection)", text, Duration.between(recovery.detectedAt(), restoredAt)
                        .toMillis());
                return Optional.empty();
            } catch (LocalRecoverer.LocalRecoveryFailedException | HostCallException e) {
                survivorsAtStart.remove(recovery.id());
                reason = "a host could not take its part: " + e.getMessage();
            }
        }
        LOG.warn("Recovering topology '{}' globally instead of locally: {}", topology.id(), reason);
        Recovery fellBack = recovery.fellBackToGlobal(reason);
        log.save(fellBack);
        return Optional.of(fellBack);
    }

    /**
     * Why lost tasks cannot be recovered locally when a channel joins two of them that ran on different hosts: the
     * upstream one's decisions travelled only in its frames to the downstream one, lost too, so neither a live host
     * nor (for what was not shipped yet) the checkpoint-service holds them all (see docs/design.md, "Local
     * recovery"). Tasks lost with one host need no such care: their frames to other hosts carry the decisions of
     * their same-host upstream tasks.
     */
    private static Optional<String> connectedAcrossLostHosts(DeployedTopology topology, List<TaskId> lost) {
        return topology.plan().channels().stream()
                .filter(channel -> lost.contains(channel.from()) && lost.contains(channel.to())
                        && !topology.placement().get(channel.from()).equals(topology.placement().get(channel.to())))
                .findFirst().map(channel -> "tasks lost on different hosts at once feed each other (" + channel.from()
                        + " on " + topology.placement().get(channel.from()) + " -> " + channel.to() + " on "
                        + topology.placement().get(channel.to()) + "), so the upstream task's logged decisions may"
                        + " be lost with its receivers");
    }

    /** The records each task of the topology not in {@code lost} had taken in, from its host's latest report. */
    private Map<String, Long> survivorRecords(DeployedTopology topology, List<TaskId> lost) {
        Map<String, Long> records = new TreeMap<>();
        topology.placement().forEach((task, host) -> {
            if (!lost.contains(task)) {
                detector.host(host).flatMap(registered -> registered.report(task.toString()))
                        .ifPresent(report -> records.put(task.toString(), report.recordsIn()));
            }
        });
        return records;
    }

    /**
     * Whether a task that kept running during a local recovery was restarted or rolled back: it reports fewer
     * records taken in than when the recovery started, or no longer reports. Null if that was not recorded (the
     * router restarted since).
     */
    private Boolean survivorsPaused(Recovery recovery, DeployedTopology topology) {
        Map<String, Long> before = survivorsAtStart.remove(recovery.id());
        if (before == null) {
            return null;
        }
        for (Map.Entry<String, Long> task : before.entrySet()) {
            HostId host = topology.placement().get(TaskId.parse(task.getKey()));
            Optional<TaskReport> now = host == null ? Optional.empty()
                    : detector.host(host).flatMap(registered -> registered.report(task.getKey()));
            if (now.isEmpty() || now.get().recordsIn() < task.getValue()
                    || now.get().status() == TaskStatus.FAILED || now.get().status() == TaskStatus.CANCELLED) {
                LOG.warn("Task {} did not keep running through recovery {}: {}", task.getKey(), recovery.id(),
                        now.map(TaskReport::toString).orElse("no longer reported"));
                return true;
            }
        }
        return false;
    }

    /** Marks a local recovery RECOVERED once every recovered task reports that it caught up. */
    private void checkLocalCatchUp(Recovery recovery, DeployedTopology topology) {
        LocalRecoveryMeasures measures = recovery.local();
        long slowest = 0;
        long records = 0;
        long bytes = 0;
        for (TaskId task : recovery.tasks()) {
            HostId host = topology.placement().get(task);
            Optional<RecoveryCatchUp> catchUp = Optional.ofNullable(host).flatMap(detector::host)
                    .flatMap(registered -> registered.report(task.toString())).map(TaskReport::catchUp);
            if (catchUp.isEmpty()) {
                return;
            }
            slowest = Math.max(slowest, catchUp.get().millis());
            records += catchUp.get().records();
            bytes += catchUp.get().bytes();
        }
        Instant caughtUpAt = measures.requestedAt().plusMillis(slowest);
        Recovery done = recovery.caughtUpInPlace(caughtUpAt, measures.caughtUp(records, bytes),
                Boolean.TRUE.equals(survivorsPaused(recovery, topology)));
        log.save(done);
        coordinators.resume(recovery.topology());
        LOG.info("Tasks {} of '{}' caught up {} ms after the router asked for their recovery ({} records, {} bytes"
                + " replayed); other tasks paused: {}", recovery.tasks(), recovery.topology(), slowest, records, bytes,
                done.otherTasksPaused());
    }

    /** Resumes the checkpoints of a topology whose tasks recovered in place did not catch up in time. */
    private void resumeCheckpointsHeldTooLong(Recovery recovery) {
        Optional<Recovery> now = log.find(recovery.id());
        if (now.isPresent() && now.get().status() == RecoveryStatus.RECOVERING
                && coordinators.isPaused(recovery.topology())
                && Duration.between(recovery.restoredAt(), clock.instant()).compareTo(CHECKPOINTS_HELD_AT_MOST) >= 0) {
            LOG.warn("Tasks {} of '{}' have not caught up {} s after they were restored in place; checkpointing"
                    + " resumes anyway", recovery.tasks(), recovery.topology(), CHECKPOINTS_HELD_AT_MOST.toSeconds());
            coordinators.resume(recovery.topology());
        }
    }

    /** An earlier recovery of the topology still RECOVERING can never catch up now: the new one redeploys it. */
    private void supersedeRecovering(Recovery successor) {
        for (Recovery earlier : log.recovering()) {
            if (earlier.topology().equals(successor.topology())) {
                log.save(earlier.abandoned("SUPERSEDED", "Recovery " + successor.id() + " of topology '"
                        + successor.topology() + "' took over before this one caught up (host "
                        + successor.failedHost() + " failed); was: " + earlier.message()));
            }
        }
    }

    private OptionalLong latestCompleted(DeployedTopology topology, Optional<CompletedCheckpoint> known) {
        try {
            return records.latestCompleted(topology.id());
        } catch (RuntimeException e) {
            LOG.warn("Checkpoint store unreachable while recovering '{}' ({}); using the latest checkpoint this router"
                    + " completed", topology.id(), e.getMessage());
            return known.map(done -> OptionalLong.of(done.checkpointId())).orElse(OptionalLong.empty());
        }
    }

    /** Deploys on every host of the placement; on a failure cancels where it succeeded and says what failed. */
    private String deploy(DeployedTopology topology, Map<HostId, RegisteredHost> live, OptionalLong restoreFrom) {
        ExecutionPlan plan = topology.plan();
        Map<HostId, String> endpoints = new LinkedHashMap<>();
        topology.placement().values().stream().distinct().sorted()
                .forEach(host -> endpoints.put(host, live.get(host).dataEndpoint()));
        TaskPlacement taskPlacement = new TaskPlacement(topology.placement(), endpoints, topology.incarnations());
        List<RegisteredHost> deployed = new ArrayList<>();
        for (HostId hostId : endpoints.keySet()) {
            RegisteredHost host = live.get(hostId);
            try {
                hostClient.deploy(host, plan, taskPlacement, restoreFrom);
                deployed.add(host);
            } catch (HostCallException e) {
                deployed.forEach(done -> cancelQuietly(done, plan.topology()));
                LOG.warn("Redeploying '{}' failed on host {}: {}", plan.topology(), hostId, e.getMessage());
                return "Redeploying topology '" + plan.topology() + "' failed on host " + hostId + ": "
                        + e.getMessage();
            }
        }
        return null;
    }

    private void cancelQuietly(RegisteredHost host, DeployedTopology topology) {
        cancelQuietly(host, topology.id());
    }

    private void cancelQuietly(RegisteredHost host, TopologyId topology) {
        try {
            hostClient.cancel(host, topology);
        } catch (HostCallException e) {
            LOG.warn("Could not cancel topology '{}' on host {}: {}", topology, host.id(), e.getMessage());
        }
    }

    /**
     * Restarts in place the tasks that failed (threw) on a live host, as a local recovery of every task of that topology
     * on that host (tasks of one host share same-host channels, which log nothing to replay from), after
     * {@link TaskRestartPolicy}'s backoff; a task out of restarts fails its topology: the recovery is recorded FAILED
     * ({@value #TASK_FAILED_REPEATEDLY}, with the task's exception) and never retried. A task counts as failed only
     * when the incarnation the router placed reports it, so a report of the incarnation just restarted never restarts
     * the new one. One topology at a time, on the recovery thread; none while a recovery of it is still redeploying.
     */
    void restartFailedTasks() {
        Instant now = clock.instant();
        for (DeployedTopology topology : topologies.all()) {
            if (givenUp.contains(topology.id())) {
                continue;
            }
            Map<HostId, List<TaskReport>> failedByHost = new TreeMap<>();
            topology.placement().forEach((task, host) -> detector.host(host)
                    .filter(registered -> detector.statusOf(registered) == HostStatus.LIVE)
                    .flatMap(registered -> registered.report(task.toString()))
                    .filter(report -> report.status() == TaskStatus.FAILED
                            && report.incarnation() == topology.incarnationOf(task))
                    .ifPresent(report -> failedByHost.computeIfAbsent(host, h -> new ArrayList<>()).add(report)));
            for (Map.Entry<HostId, List<TaskReport>> failed : failedByHost.entrySet()) {
                TaskReport first = failed.getValue().get(0);
                if (restartOnLiveHost(topology, failed.getKey(), failed.getValue().stream()
                        .map(report -> TaskId.parse(report.task())).toList(), "failed: " + first.failure(),
                        DetectionCause.TASK_FAILED, now, first)) {
                    return; // the topology changed: the next check sees it afresh
                }
            }
        }
    }

    /**
     * Restarts in place, as for a failed task, the tasks that did not acknowledge {@value #EXPIRIES_BEFORE_RESTART}
     * checkpoints in a row of a topology that is not being recovered, on a host that is LIVE: a task that heartbeats
     * on but never takes its barrier (wedged behind a lost frame, a stuck operator) would otherwise keep every later
     * checkpoint from completing, and its output logs from ever being truncated. A missing task on a DEAD host is left
     * to that host's recovery.
     */
    void restartTasksMissingCheckpoints() {
        Instant now = clock.instant();
        for (DeployedTopology topology : topologies.all()) {
            if (givenUp.contains(topology.id()) || coordinators.isPaused(topology.id())) {
                continue;
            }
            Map<TaskId, HostId> missed = coordinators.coordinator(topology.id())
                    .map(coordinator -> coordinator.missedByExpiries(EXPIRIES_BEFORE_RESTART)).orElse(Map.of());
            Map<HostId, List<TaskId>> byHost = new TreeMap<>();
            missed.forEach((task, host) -> byHost.computeIfAbsent(host, h -> new ArrayList<>()).add(task));
            for (Map.Entry<HostId, List<TaskId>> stuck : byHost.entrySet()) {
                Optional<RegisteredHost> host = detector.host(stuck.getKey())
                        .filter(registered -> detector.statusOf(registered) == HostStatus.LIVE);
                if (host.isEmpty()) {
                    continue;
                }
                List<TaskId> tasks = stuck.getValue().stream().sorted().toList();
                String diagnosis = tasks.stream().map(task -> task + " (" + host.get().report(task.toString())
                        .map(report -> report.status() + ", " + report.recordsIn() + " records in, "
                                + report.queuedFrames() + " frames queued, backpressured "
                                + report.backpressuredMillis() + " ms")
                        .orElse("not reported by its host") + ")").collect(java.util.stream.Collectors.joining(", "));
                if (restartOnLiveHost(topology, stuck.getKey(), tasks, "did not acknowledge "
                        + EXPIRIES_BEFORE_RESTART + " checkpoints in a row: " + diagnosis,
                        DetectionCause.CHECKPOINTS_EXPIRED, now, null)) {
                    return;
                }
            }
        }
    }

    /**
     * Restarts the topology's tasks on live host {@code host} in place because {@code culprits} among them {@code
     * why}, unless {@link TaskRestartPolicy} says to wait; gives the topology up when it says so.
     *
     * @param failed the report of the first culprit, if it failed (for the message when the topology gives up)
     * @return whether the tasks were restarted
     */
    private boolean restartOnLiveHost(DeployedTopology topology, HostId host, List<TaskId> culprits, String why,
                                      DetectionCause cause, Instant now, @Nullable TaskReport failed) {
        TaskRestartPolicy.Decision decision = restarts.decide(culprits.get(0), now);
        if (decision instanceof TaskRestartPolicy.GiveUp giveUp) {
            giveUp(topology, host, culprits.get(0), failed == null ? why : failed.failure(), giveUp.attempts());
            return false;
        }
        if (!(decision instanceof TaskRestartPolicy.RestartNow restart)) {
            return false;
        }
        Optional<RegisteredHost> registered = detector.host(host);
        if (registered.isEmpty()) {
            return false;
        }
        List<TaskId> lost = topology.placement().entrySet().stream().filter(placed -> placed.getValue().equals(host))
                .map(Map.Entry::getKey).sorted().toList();
        LOG.warn("Task(s) {} of '{}' on live host {} {}; restarting the topology's tasks {} there in place, restart {}"
                + " of at most {} within {}", culprits, topology.id(), host, why, lost, restart.attempt(),
                restarts.maxAttempts(), restarts.window());
        culprits.forEach(task -> restarts.restarted(task, now));
        // stopped first, with their same-host peers (same-host channels log nothing to replay from): the restarted
        // incarnations replace them, and the other hosts refuse what the old ones still send once redirected
        cancelQuietly(registered.get(), topology);
        recover(topology, new DetectedFailure(host, registered.get().lastHeartbeat(), now, cause), lost, host);
        return true;
    }

    /**
     * Escalates a recovery that cannot finish: a LOCAL one whose tasks have not caught up {@link #CATCH_UP_AT_MOST}
     * after they were restored is superseded by a GLOBAL recovery of the topology; a GLOBAL one is marked FAILED
     * ({@code CATCH_UP_TIMEOUT}), which {@link #retryFailed} retries. Never left RECOVERING.
     */
    private void escalateIfStuck(Recovery recovery, DeployedTopology topology) {
        Optional<Recovery> now = log.find(recovery.id());
        if (now.isEmpty() || now.get().status() != RecoveryStatus.RECOVERING || recovery.restoredAt() == null
                || Duration.between(recovery.restoredAt(), clock.instant()).compareTo(CATCH_UP_AT_MOST) < 0) {
            return;
        }
        String text = "Tasks " + recovery.tasks() + " of '" + topology.id() + "' had not caught up "
                + CATCH_UP_AT_MOST.toSeconds() + " s after they were restored (recovery " + recovery.id() + ", "
                + recovery.mode() + ")";
        if (recovery.mode() == RecoveryMode.LOCAL) {
            LOG.warn("{}; recovering the topology globally instead", text);
            recover(topology, new DetectedFailure(recovery.failedHost(), recovery.lastHeartbeat(), clock.instant(),
                    DetectionCause.CATCH_UP_TIMEOUT), topology.placement().keySet().stream().sorted().toList(), null,
                    true);
        } else {
            LOG.warn("{}; marking it FAILED, to be retried", text);
            log.save(recovery.failed("CATCH_UP_TIMEOUT", text + "; retried in " + RETRY_BACKOFF.toSeconds() + " s"));
        }
    }

    private void giveUp(DeployedTopology topology, HostId host, TaskId task, String failure, int attempts) {
        givenUp.add(topology.id());
        Instant now = clock.instant();
        String text = "Task " + task + " of topology '" + topology.id() + "' failed on host " + host + " "
                + attempts + " times within " + restarts.window() + " (at most " + restarts.maxAttempts() + " restarts);"
                + " the topology is FAILED and is not restarted again. Last failure: " + failure
                + ". Fix the operator or its input, then cancel and deploy the topology again";
        Recovery recovery = new Recovery(log.nextId(), topology.id(), host, List.of(task),
                topology.plan().epoch(), null, now, now, null, null, 0L, null, null, RecoveryStatus.RECOVERING, null,
                "giving up", progress.sinkRecordsIn(topology), DetectionCause.TASK_FAILED);
        supersedeRecovering(recovery);
        log.save(recovery.failed(TASK_FAILED_REPEATEDLY, text));
        coordinators.pause(topology.id(), text);
        LOG.error(text);
    }

    /** Marks RECOVERED each recovery whose sinks have caught up (from fresh heartbeats) or whose topology finished. */
    public void checkProgress() {
        restartFailedTasks();
        restartTasksMissingCheckpoints();
        for (Recovery recovery : log.recovering()) {
            if (recovery.restoredAt() == null) {
                continue;
            }
            Optional<DeployedTopology> found = topologies.find(recovery.topology());
            if (found.isEmpty()) {
                log.save(recovery.abandoned("TOPOLOGY_CANCELLED", "Topology '" + recovery.topology() + "' was"
                        + " cancelled before it caught up; was: " + recovery.message()));
                continue;
            }
            if (recovery.mode() == RecoveryMode.LOCAL && recovery.local() != null
                    && recovery.local().requestedAt() != null) {
                checkLocalCatchUp(recovery, found.get());
                resumeCheckpointsHeldTooLong(recovery);
                escalateIfStuck(recovery, found.get());
                continue;
            }
            Optional<DeployedTopology> topology = found.filter(t -> t.plan().epoch() == recovery.epoch());
            if (topology.isEmpty() || !progress.reportedTwiceSince(topology.get(), recovery.restoredAt())) {
                escalateIfStuck(recovery, found.get());
                continue;
            }
            if (progress.finished(topology.get())
                    || progress.sinkRecordsIn(topology.get()) >= recovery.sinkRecordsTarget()) {
                Recovery done = recovery.caughtUp(clock.instant());
                log.save(done);
                LOG.info("Topology '{}' caught up {} ms after its redeployment", recovery.topology(),
                        done.catchUpMillis());
            }
        }
    }

    @Override
    public synchronized void close() throws InterruptedException {
        local.close();
        if (executor != null) {
            executor.shutdownNow();
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
