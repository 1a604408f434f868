package io.steadfast.host.execution;

import io.steadfast.api.operator.ConfigException;
import io.steadfast.host.execution.DeploymentRejectedException.Reason;
import io.steadfast.protocol.problem.FieldError;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.dataplane.DataPlaneMetrics;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.recovery.InPlaceRestore;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's {@link HostRuntime} as the REST layer and the router see it: deployments are checked task by
 * task, and against the {@link HostLimits} with what already runs here, before anything starts; state queries wait
 * with a timeout, and closing is observable for health. It reconciles what it runs with the router's view
 * ({@link #reconcile}). Thread-safe; deploy, cancel and reconcile are serialised.
 */
public final class ProcessingNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessingNode.class);

    /** See {@link Staleness#RECORDED_WITHIN}. */
    static final Duration RECORDED_WITHIN = Staleness.RECORDED_WITHIN;

    private final HostRuntime runtime;
    private final OperatorRegistry registry;
    private final TaskMeters meters;
    private final InstantSource clock;
    private final DeploymentAdmission admission;
    private final StateQueries queries;
    /** The epoch, tasks, load and start time of each topology deployed here; guarded by this. */
    private final Map<TopologyId, LocalDeployment> deployments = new TreeMap<>();
    private final PreparedPlans prepared = new PreparedPlans();
    private volatile boolean closed;

    /** A node with {@link HostLimits#defaults()}. */
    public ProcessingNode(HostRuntime runtime, OperatorRegistry registry, TaskMeters meters, InstantSource clock) {
        this(runtime, registry, meters, clock, HostLimits.defaults());
    }

    public ProcessingNode(HostRuntime runtime, OperatorRegistry registry, TaskMeters meters, InstantSource clock,
                          HostLimits limits) {
        this.runtime = runtime;
        this.registry = registry;
        this.meters = meters;
        this.clock = clock;
        this.admission = new DeploymentAdmission(runtime.id(), registry, limits);
        this.queries = new StateQueries(runtime);
    }

    public HostId id() {
        return runtime.id();
    }

    public String dataEndpoint() {
        return runtime.dataEndpoint();
    }

    public DataPlaneMetrics dataPlaneMetrics() {
        return runtime.dataPlane().metrics();
    }

    /** How long the data plane's IO thread has gone without a pass beyond its period (see {@code DataPlane}). */
    public Duration dataPlaneStalledFor() {
        return runtime.dataPlane().ioStalledFor();
    }

    /** Fault injection: hangs the data plane's IO thread for {@code length} (see {@code DataPlane#injectIoStall}). */
    public void injectDataPlaneStall(Duration length) {
        runtime.dataPlane().injectIoStall(length);
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Tells {@code listener} of every peer host whose data-plane connection from this host dropped, on the data
     * plane's IO thread: hand off and return (see {@link HostRuntime#onPeerHostDisconnected}).
     */
    public void onPeerHostDisconnected(Consumer<HostId> listener) {
        runtime.onPeerHostDisconnected(listener);
    }

    /** Starts this host's tasks of a plan (see {@link #deploy(ExecutionPlan, TaskPlacement, Map)}). */
    public synchronized List<TaskId> deploy(ExecutionPlan plan, TaskPlacement placement) {
        return deploy(plan, placement, Map.of());
    }

    /**
     * Starts this host's tasks of a plan, each restored first from its snapshot in {@code restoreFrom} if it has
     * one.
     *
     * @return the ids of the tasks started here, in plan order
     * @throws DeploymentRejectedException if the topology already runs here, a task placed here cannot run, or its
     *                                     tasks and channels would take this host beyond its limits
     */
    public synchronized List<TaskId> deploy(ExecutionPlan plan, TaskPlacement placement,
                                            Map<TaskId, OperatorSnapshot> restoreFrom) {
        TopologyId topology = plan.topology();
        if (runtime.topologies().contains(topology)) {
            throw new DeploymentRejectedException(topology, Reason.ALREADY_DEPLOYED, "Topology '" + topology
                    + "' is already deployed on host " + id() + "; DELETE /api/v1/deployments/" + topology
                    + " first", List.of());
        }
        HostLoad load = roomToDeploy(plan, placement);
        List<FieldError> problems = admission.problemsOf(plan, placement);
        if (!problems.isEmpty()) {
            throw admission.invalid(topology, problems);
        }
        List<TaskId> started;
        try {
            started = runtime.deploy(plan, placement, restoreFrom);
        } catch (IllegalStateException e) {
            throw new DeploymentRejectedException(topology, Reason.ALREADY_DEPLOYED, e.getMessage(), List.of());
        } catch (IllegalArgumentException | ConfigException e) {
            throw admission.invalid(topology, List.of(FieldError.of("plan", e.getMessage())));
        }
        meters.register(plan, started);
        deployments.put(topology, new LocalDeployment(plan.epoch(), started, load, clock.instant()));
        return started;
    }

    /**
     * Checks, from the plan alone, that this host can run its tasks of the plan beside what it runs now, before
     * anything is fetched for them; the deployment itself checks again.
     *
     * @throws DeploymentRejectedException if it would take this host beyond its limits
     */
    public synchronized void requireRoomToDeploy(ExecutionPlan plan, TaskPlacement placement) {
        if (!runtime.topologies().contains(plan.topology())) { // else the deployment is refused as already deployed
            roomToDeploy(plan, placement);
        }
    }

    /**
     * Checks, from the plan alone, that this host can run {@code tasks} of the plan in place of lost ones beside what
     * it runs now (tasks of the same topology included), before anything is fetched for them; the recovery itself
     * checks again.
     *
     * @throws DeploymentRejectedException if the recovery would take this host beyond its limits
     */
    public synchronized void requireRoomToRecover(ExecutionPlan plan, Set<TaskId> tasks) {
        roomToRecover(plan, tasks);
    }

    /** What the deployment adds here, if this host has room for it. */
    private HostLoad roomToDeploy(ExecutionPlan plan, TaskPlacement placement) {
        return admission.roomToDeploy(plan, placement, running());
    }

    /** What this host runs of the topology after the recovery, if it has room for it. */
    private HostLoad roomToRecover(ExecutionPlan plan, Set<TaskId> tasks) {
        return admission.roomToRecover(plan, tasks, deployments.get(plan.topology()), running());
    }

    private HostLoad running() {
        return deployments.values().stream().map(LocalDeployment::load).reduce(HostLoad.NONE, HostLoad::plus);
    }

    /**
     * Starts tasks of a topology in place of lost ones (local recovery): restored from their snapshots with their
     * channels resumed, replaying their logged decisions first. The topology may already have tasks here.
     *
     * @return the tasks started
     * @throws DeploymentRejectedException if a task placed here cannot run, the restore does not fit the plan, or
     *                                     the tasks and their channels would take this host beyond its limits
     */
    public synchronized List<TaskId> recoverInPlace(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasks,
                                                    InPlaceRestore restore) {
        TopologyId topology = plan.topology();
        long start = System.nanoTime();
        HostLoad load = roomToRecover(plan, tasks);
        List<FieldError> problems = admission.problemsOf(plan, placement);
        if (!problems.isEmpty()) {
            throw admission.invalid(topology, problems);
        }
        long checked = System.nanoTime();
        List<TaskId> started;
        try {
            started = runtime.recoverInPlace(plan, placement, tasks, restore);
        } catch (IllegalArgumentException | IllegalStateException | ConfigException e) {
            throw admission.invalid(topology, List.of(FieldError.of("tasks", e.getMessage())));
        }
        long created = System.nanoTime();
        meters.register(plan, started);
        LOG.info("Started {} in place: plan checked in {} ms, tasks created in {} ms, meters registered in {} ms",
                started, (checked - start) / 1_000_000, (created - checked) / 1_000_000,
                (System.nanoTime() - created) / 1_000_000);
        LocalDeployment before = deployments.get(topology);
        List<TaskId> all = new ArrayList<>(before == null ? List.of() : before.tasks());
        all.addAll(started);
        deployments.put(topology, new LocalDeployment(plan.epoch(), all, load, clock.instant()));
        return started;
    }

    /**
     * Restores ahead the operators of tasks of a topology this host may be asked to recover in place, from their
     * snapshots in {@code checkpointId} (see {@link HostRuntime#restoreAhead}), with the plan this host holds of it;
     * none without one.
     *
     * @return the tasks whose operators were restored ahead
     */
    public List<TaskId> restoreAhead(TopologyId topology, Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        Optional<ExecutionPlan> plan = runtime.plan(topology).or(() -> prepared.of(topology));
        return plan.map(held -> runtime.restoreAhead(held, snapshots, checkpointId)).orElse(List.of());
    }

    /**
     * Prepares ahead the recovery in place of tasks of a topology this host may be asked to recover, as the router would
     * place them ({@code placement}), from their snapshots in {@code checkpointId} (see
     * {@link HostRuntime#prepareRecovery}), with the plan this host holds of it; none without one, and none if the
     * recovery would take this host beyond its limits (preparing makes the tasks' channel writers, the larger part of
     * what a channel costs; the recovery itself is then refused).
     *
     * @return the tasks prepared
     */
    public List<TaskId> prepareRecovery(TopologyId topology, TaskPlacement placement,
                                        Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        Optional<ExecutionPlan> plan = runtime.plan(topology).or(() -> prepared.of(topology));
        if (plan.isEmpty()) {
            return List.of();
        }
        try {
            requireRoomToRecover(plan.get(), snapshots.keySet());
        } catch (DeploymentRejectedException e) {
            LOG.warn("Not preparing tasks {} of topology '{}' ahead: {}", snapshots.keySet(), topology, e.getMessage());
            return List.of();
        }
        return runtime.prepareRecovery(plan.get(), placement, snapshots, checkpointId);
    }

    /** Whether {@code task} prepared ahead from {@code checkpointId} waits for a recovery. */
    public boolean preparedAhead(TaskId task, long checkpointId) {
        return runtime.preparedAhead(task, checkpointId);
    }

    /** How many tasks prepared ahead the recoveries on this host have taken. */
    public long preparedTasksTaken() {
        return runtime.preparedTasksTaken();
    }

    /** Whether the operator of {@code task} restored ahead from {@code checkpointId} waits for a recovery. */
    public boolean restoredAhead(TaskId task, long checkpointId) {
        return runtime.restoredAhead(task, checkpointId);
    }

    /**
     * A second runtime in this process, with a data plane of its own on loopback and this host's operators, to play a
     * peer host in the recovery warm-up: this host takes over its tasks as a standby takes over a failed host's, and
     * serves it as a live host serves a recovery (redirects, resends, logged decisions). Its tasks' snapshots go to
     * {@code checkpoints}; nothing of it is registered or reported. Close it when done.
     */
    public HostRuntime rehearsalPeer(CheckpointListener checkpoints) {
        return new HostRuntime(new HostId(id().value() + "-rehearsal-peer"), registry,
                DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), clock, checkpoints);
    }

    /**
     * The plan of a topology at an epoch, if this host holds it: it runs tasks of the topology at that epoch, or
     * prepared the plan ahead ({@link #preparePlans}).
     */
    public Optional<ExecutionPlan> planAt(TopologyId topology, int epoch) {
        Optional<ExecutionPlan> running = runtime.plan(topology).filter(plan -> plan.epoch() == epoch);
        return running.isPresent() ? running : prepared.at(topology, epoch);
    }

    /**
     * Fetches ahead, from {@code source}, the plans of the topologies in the router's view that run no task here,
     * so that this host can take over lost tasks of them without being sent the plan; drops the others.
     *
     * @return the topologies whose plan was fetched
     */
    public List<TopologyId> preparePlans(HostAssignment assignment, PreparedPlans.PlanSource source) {
        return prepared.update(assignment, topology -> runtime.plan(topology).isPresent(), source);
    }

    /**
     * Fences {@code task}'s earlier incarnations on the channels into this host's tasks before this host answers its
     * decisions to incarnation {@code incarnation}; false if this host knows a newer one (see {@code HostRuntime}).
     */
    public boolean fenceForDecisionsOf(TaskId task, int incarnation) {
        return runtime.fenceForDecisionsOf(task, incarnation);
    }

    /** The decisions of a task this host received with its input, from {@code fromOffset} on. */
    public Optional<byte[]> decisionsOf(TaskId task, long fromOffset) {
        return runtime.decisionsOf(task, fromOffset);
    }

    /** The earliest run of a task's decisions this host received with its input. */
    public Optional<HeldDecisions> earliestDecisionsOf(TaskId task) {
        return runtime.earliestDecisionsOf(task);
    }

    /**
     * Points this host's channels towards moved tasks at their new endpoints, learning the host behind each endpoint
     * named in {@code hosts} (to name it when its connection drops), and refuses from then on what the moved tasks'
     * earlier incarnations send or answer ({@code incarnations}: the one each runs as now).
     *
     * @return the last sequence number sent on each channel redirected: what the moved task must take in to have
     *         caught up
     */
    public Map<ChannelId, Long> redirect(TopologyId topology, Map<TaskId, String> newEndpoints,
                                         Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        return runtime.redirectChannelsTo(topology, newEndpoints, hosts, incarnations);
    }

    /** Tells the tasks recovered here what their live upstream tasks had sent when redirected to them. */
    public void catchUpTargets(TopologyId topology, Map<ChannelId, Long> heads) {
        runtime.catchUpTargets(topology, heads);
    }

    /** A checkpoint of the topology completed: output logs and decision logs here may drop what it covers. */
    public void checkpointCompleted(TopologyId topology, long checkpointId) {
        runtime.checkpointCompleted(topology, checkpointId);
    }

    /** Stops this host's tasks of a topology; unknown topologies are ignored. */
    public synchronized void cancel(TopologyId topology) {
        runtime.cancel(topology);
        meters.remove(topology);
        deployments.remove(topology);
    }

    /**
     * Stops every task of every topology here: this host can no longer be sure the router has not moved them (its
     * lease lapsed, or the router declared its session over). It rejoins the router empty.
     *
     * @return what was stopped
     */
    public synchronized List<HostDeployment> fence() {
        List<HostDeployment> stopped = deployments();
        for (TopologyId topology : List.copyOf(runtime.topologies())) {
            cancel(topology);
        }
        return stopped;
    }

    /** What this host runs, one entry per deployed topology, sorted: reported to the router with each heartbeat. */
    public synchronized List<HostDeployment> deployments() {
        return deployments.entrySet().stream()
                .map(e -> new HostDeployment(e.getKey(), e.getValue().epoch(), e.getValue().tasks())).toList();
    }

    /**
     * Cancels every deployment here that the router's view no longer has on this host: a topology the router
     * runs at a later epoch (it was recovered elsewhere, typically while this host was declared dead and its
     * tasks kept running unseen); one the router runs at the same epoch with no task here, unless tasks of it were
     * deployed or recovered in place here within {@link #RECORDED_WITHIN} (the router records tasks it recovered in
     * place only once the recovery is done, so a heartbeat answered meanwhile shows none here, and cancelling them
     * then would stop a recovery just started); and one the
     * router does not know (cancelled while this host was unreachable, or forgotten by a router restarted without a
     * store) once it has run here unchanged for longer than {@code unknownGrace}: a topology being deployed reaches
     * the router's view only after every host accepted it. A deployment newer than the router's view (a
     * redeployment the router has not recorded yet) is kept.
     *
     * @return what was cancelled and why, for the log
     */
    public synchronized List<StaleDeployment> reconcile(HostAssignment assignment, Duration unknownGrace) {
        Instant now = clock.instant();
        List<StaleDeployment> stale = new ArrayList<>();
        for (Map.Entry<TopologyId, LocalDeployment> entry : List.copyOf(deployments.entrySet())) {
            TopologyId topology = entry.getKey();
            LocalDeployment local = entry.getValue();
            String reason = Staleness.reasonToCancel(topology, local.epoch(), assignment.of(topology),
                    Duration.between(local.changedAt(), now), unknownGrace);
            if (reason != null) {
                LOG.warn("Host {} cancels its stale tasks {} of topology '{}' epoch {}: {}", id(), local.tasks(),
                        topology, local.epoch(), reason);
                cancel(topology);
                stale.add(new StaleDeployment(new HostDeployment(topology, local.epoch(), local.tasks()), reason));
            }
        }
        return stale;
    }

    /**
     * Starts checkpoint {@code checkpointId} at this host's source tasks of a topology; returns at once.
     *
     * @return false if the topology does not run here
     */
    public boolean triggerCheckpoint(TopologyId topology, long checkpointId) {
        if (!runtime.topologies().contains(topology)) {
            return false;
        }
        runtime.triggerCheckpoint(topology, checkpointId);
        return true;
    }

    public List<TaskReport> taskReports() {
        return runtime.taskReports();
    }

    /**
     * The value of one key of a keyed state.
     *
     * @throws StateQueryException if the task is not here, has no keyed state or does not answer in time
     */
    public Optional<Object> queryState(TaskId task, String stateName, String key) {
        return queries.await(task, () -> runtime.queryState(task, stateName, key));
    }

    /** The value of a task state (state of the whole task, not of a key), if the task holds one. */
    public Optional<Object> queryTaskState(TaskId task, String stateName) {
        return queries.await(task, () -> runtime.queryTaskState(task, stateName));
    }

    /** Up to {@code limit} keys' values of a keyed state, sorted by key. */
    public Map<String, Object> queryAll(TaskId task, String stateName, int limit) {
        return queries.await(task, () -> runtime.queryAll(task, stateName, limit));
    }

    /** Cancels every task and closes the data plane. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (TopologyId topology : runtime.topologies()) {
            meters.remove(topology);
        }
        deployments.clear();
        runtime.close();
    }
}
