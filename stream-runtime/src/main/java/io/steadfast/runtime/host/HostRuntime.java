package io.steadfast.runtime.host;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.InboundListener;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.recovery.HostDecisions;
import io.steadfast.runtime.recovery.InPlaceRecovery;
import io.steadfast.runtime.recovery.InPlaceRestore;
import io.steadfast.runtime.recovery.RecoveryHost;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskFactory;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A processing node without Spring: one data plane and the tasks placed on this host. Several can run in one
 * JVM (tests, benchmarks); the pe-host-service wraps one with REST and registration. Deploy and cancel are
 * serialised; queries go through the tasks' mailboxes.
 */
public final class HostRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HostRuntime.class);
    private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(5);

    private final HostId id;
    private final DataPlane dataPlane;
    private final TaskFactory taskFactory;
    private final Map<TaskId, StreamTask> tasks = new ConcurrentSkipListMap<>();
    /** The incarnation of each task here that is not a first one (see {@link TaskPlacement}). */
    private final Map<TaskId, Integer> incarnations = new ConcurrentHashMap<>();
    private final HostChannels channels;
    private final Map<TopologyId, ExecutionPlan> plans = new ConcurrentHashMap<>();
    private final HostDecisions decisions;
    private final TaskRates rates = new TaskRates();

    private final CheckpointListener checkpoints;
    private final ExecutorService snapshotWriter;
    private final InPlaceRecovery recovery;

    public HostRuntime(HostId id, OperatorRegistry registry, DataPlane dataPlane, TaskSettings settings,
                       InstantSource clock) {
        this(id, registry, dataPlane, settings, clock, CheckpointListener.NONE);
    }

    /**
     * @param checkpoints told of every snapshot a task of this host takes for a checkpoint, on that task's
     *                    thread: hand the bytes to an uploader and return. Each comes with the task's incarnation
     *                    in the placement it was deployed, recovered or prepared with
     */
    public HostRuntime(HostId id, OperatorRegistry registry, DataPlane dataPlane, TaskSettings settings,
                       InstantSource clock, CheckpointListener checkpoints) {
        this.id = id;
        this.dataPlane = dataPlane;
        this.channels = new HostChannels(id, dataPlane);
        this.snapshotWriter = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "steadfast-snapshot-writer-" + id);
            thread.setDaemon(true);
            return thread;
        });
        this.taskFactory = new TaskFactory(registry, settings, clock, snapshotWriter);
        this.checkpoints = checkpoints;
        this.decisions = new HostDecisions(id);
        this.recovery = new InPlaceRecovery(id, new Host(), taskFactory, checkpoints, decisions);
    }

    public HostId id() {
        return id;
    }

    /** The endpoint other hosts send this host's task inputs to. */
    public String dataEndpoint() {
        return dataPlane.endpoint();
    }

    public DataPlane dataPlane() {
        return dataPlane;
    }

    /**
     * Starts this host's tasks of a plan. Every task is created (config bound) before any is started, so a bad
     * spec fails the whole deployment on this host without leaving half of it running.
     *
     * @throws IllegalArgumentException if a task's type is unknown here or its config does not bind
     * @throws IllegalStateException if the topology is already deployed here
     */
    public synchronized List<TaskId> deploy(ExecutionPlan plan, TaskPlacement placement) {
        return deploy(plan, placement, Map.of());
    }

    /**
     * Starts this host's tasks of a plan, each restored first from its snapshot in {@code restoreFrom} if it
     * has one (a source then resumes from its snapshotted position).
     *
     * @throws IllegalArgumentException if a task's type is unknown here or its config does not bind
     * @throws IllegalStateException if the topology is already deployed here
     */
    public synchronized List<TaskId> deploy(ExecutionPlan plan, TaskPlacement placement,
                                            Map<TaskId, OperatorSnapshot> restoreFrom) {
        TopologyId topology = plan.topology();
        if (channels.has(topology)) {
            throw new IllegalStateException("topology '" + topology + "' is already deployed on host " + id
                    + "; cancel it first");
        }
        List<TaskSpec> local = plan.tasks().stream().filter(task -> id.equals(placement.hostOf(task.id()))).toList();
        List<ChannelId> opened = new ArrayList<>();
        Map<ChannelId, LocalChannel> localChannels = new HashMap<>();
        Map<TaskId, StreamTask> created = new LinkedHashMap<>();
        local.forEach(spec -> decisions.startLog(spec.id()));
        plans.put(topology, plan);
        for (TaskSpec spec : local) {
            StreamTask task = taskFactory.create(spec, channel -> {
                ChannelSpec channelSpec = plan.channel(channel).orElseThrow();
                if (id.equals(placement.hostOf(channelSpec.to()))) {
                    LocalChannel localChannel = new LocalChannel(channel, dataPlane.config().creditFrames());
                    localChannels.put(channel, localChannel);
                    return localChannel;
                }
                opened.add(channel);
                return channels.openOutbound(channel, placement.endpointOf(channelSpec.to()), 1, plan.recoveryMode(),
                        placement.incarnationOf(spec.id()));
            }, channel -> decisions.forwarder(plan, placement, spec, channel, decisions::logOf),
                    checkpoints.of(spec.id(), placement.incarnationOf(spec.id())), decisions.logOf(spec.id()));
            OperatorSnapshot snapshot = restoreFrom.get(spec.id());
            if (snapshot != null) {
                task.restore(snapshot);
            }
            created.put(task.id(), task);
        }
        for (TaskSpec spec : local) {
            StreamTask task = created.get(spec.id());
            for (InputChannel input : spec.inputs()) {
                LocalChannel localChannel = localChannels.get(input.channel());
                if (localChannel != null) {
                    localChannel.connect(task);
                } else {
                    dataPlane.openInbound(input.channel(), 0, toTask(topology, task),
                            placement.incarnationOf(spec.id()), placement.incarnationOf(input.from()));
                    opened.add(input.channel());
                }
            }
            tasks.put(task.id(), task);
            incarnations.put(task.id(), placement.incarnationOf(task.id()));
        }
        channels.opened(topology, opened, placement);
        created.values().forEach(StreamTask::start);
        LOG.info("Host {} started {} tasks of topology '{}' ({} local channels)", id, created.size(), topology,
                localChannels.size());
        return List.copyOf(created.keySet());
    }

    /** The incarnation of a task that runs here (0 for a first one, or a task not here). */
    public int incarnationOf(TaskId task) {
        return incarnations.getOrDefault(task, 0);
    }

    /** The plan of a topology this host runs tasks of; empty if it runs none. */
    public Optional<ExecutionPlan> plan(TopologyId topology) {
        return Optional.ofNullable(plans.get(topology));
    }

    /**
     * Restores ahead the operators of tasks this host may be asked to recover in place (see
     * {@link InPlaceRecovery#restoreAhead}). Not under the runtime's lock: any thread, while the tasks run.
     *
     * @return the tasks whose operators were restored ahead
     */
    public List<TaskId> restoreAhead(ExecutionPlan plan, Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        return recovery.restoreAhead(plan, snapshots, checkpointId);
    }

    /** Whether the operator of {@code task} restored ahead from {@code checkpointId} waits for a recovery. */
    public boolean restoredAhead(TaskId task, long checkpointId) {
        return recovery.restoredAhead(task, checkpointId);
    }

    /**
     * Starts the given tasks of a plan on this host in place of lost ones (local recovery; see
     * {@link InPlaceRecovery#recover}). The topology may already have tasks here.
     *
     * @param tasksToRecover tasks placed on this host by {@code placement}, each with a snapshot
     * @throws IllegalArgumentException if a task is not placed here, has no snapshot, or its type is unknown
     */
    public synchronized List<TaskId> recoverInPlace(ExecutionPlan plan, TaskPlacement placement,
                                                    Set<TaskId> tasksToRecover, InPlaceRestore restore) {
        return recovery.recover(plan, placement, tasksToRecover, restore);
    }

    /**
     * Prepares ahead the recovery in place of tasks this host may be asked to recover (see
     * {@link InPlaceRecovery#prepare}).
     *
     * @return the tasks prepared (none if any of them cannot be: a recovery takes all or none)
     */
    public synchronized List<TaskId> prepareRecovery(ExecutionPlan plan, TaskPlacement placement,
                                                     Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        return recovery.prepare(plan, placement, snapshots, checkpointId);
    }

    /** Whether {@code task}, prepared ahead from {@code checkpointId} ({@link #prepareRecovery}), waits to be taken. */
    public boolean preparedAhead(TaskId task, long checkpointId) {
        return recovery.preparedAhead(task, checkpointId);
    }

    /** How many tasks prepared ahead recoveries on this host have taken. */
    public long preparedTasksTaken() {
        return recovery.preparedTasksTaken();
    }

    /**
     * Hands each arriving frame of a channel to its task, storing first the decisions the frame starts with (IO
     * thread): a task held up — no credit towards a receiver that died with the frame's sender — may take the frame
     * in only after the sender's recovery collected its decisions from here, and must then find them replayed.
     * A malformed frame is left to its task, which drops and counts it.
     */
    private InboundListener toTask(TopologyId topology, StreamTask task) {
        return frame -> {
            decisions.receiveLeading(topology, frame);
            task.deliver(new DataPlaneInputFrame(frame));
        };
    }

    /**
     * The decisions of a task of a deployed topology that arrived here with its output, from {@code fromOffset} on,
     * if this host holds them from there.
     */
    public Optional<byte[]> decisionsOf(TaskId task, long fromOffset) {
        return decisions.decisionsOf(plans.get(task.topology()), task, fromOffset);
    }

    /** The earliest run of a task's decisions that arrived here with its output (see {@link HostDecisions}). */
    public Optional<HeldDecisions> earliestDecisionsOf(TaskId task) {
        return decisions.earliestOf(plans.get(task.topology()), task);
    }

    /**
     * The receiving task of an outbound channel of this host now runs at {@code endpoint}: the channel synchronises
     * with it and replays what it lacks from the output log.
     *
     * @throws IllegalArgumentException if this host has no such outbound channel
     */
    public void redirect(ChannelId channel, String endpoint) {
        channels.redirect(channel, endpoint);
    }

    /** As {@link #redirectChannelsTo(TopologyId, Map, Map, Map)}, no incarnation fenced. */
    public Map<ChannelId, Long> redirectChannelsTo(TopologyId topology, Map<TaskId, String> newEndpoints,
                                                   Map<String, HostId> hosts) {
        return redirectChannelsTo(topology, newEndpoints, hosts, Map.of());
    }

    /**
     * Points this host's channels towards moved tasks at their new endpoints, fencing the tasks' earlier incarnations
     * first (see {@link HostChannels#redirectChannelsTo}).
     *
     * @param hosts the host of each new endpoint (may name fewer, or none)
     * @return the last sequence number sent on each channel redirected
     */
    public Map<ChannelId, Long> redirectChannelsTo(TopologyId topology, Map<TaskId, String> newEndpoints,
                                                   Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        return channels.redirectChannelsTo(topology, plans.get(topology), newEndpoints, hosts, incarnations,
                tasks.values());
    }

    /**
     * Readies this host to answer what it holds of {@code task}'s decisions to the task's incarnation
     * {@code incarnation}, refusing its earlier ones first (see {@link HostChannels#fenceForDecisionsOf}).
     *
     * @return false, and nothing fenced, if this host knows a newer incarnation of the task
     */
    public synchronized boolean fenceForDecisionsOf(TaskId task, int incarnation) {
        return channels.fenceForDecisionsOf(task, incarnation, plans.get(task.topology()), tasks.values());
    }

    /**
     * Tells the tasks of a topology on this host, recovered in place, what their live upstream tasks had sent on each
     * channel when redirected to them (see {@link InPlaceRecovery#catchUpTargets}).
     */
    public synchronized void catchUpTargets(TopologyId topology, Map<ChannelId, Long> heads) {
        recovery.catchUpTargets(plans.get(topology), heads);
    }

    /** The outbound data-plane channels of this host whose receiving end is one of {@code receivers}. */
    public List<ChannelId> outboundChannelsTo(ExecutionPlan plan, Set<TaskId> receivers) {
        return channels.outboundChannelsTo(plan, receivers);
    }

    /** Checkpoint {@code checkpointId} of a topology completed: its tasks here may truncate their output logs. */
    public void checkpointCompleted(TopologyId topology, long checkpointId) {
        tasks.values().stream().filter(task -> task.id().topology().equals(topology))
                .forEach(task -> task.checkpointCompleted(checkpointId));
    }

    /** Stops this host's tasks of a topology and closes their channels; unknown topologies are ignored. */
    public synchronized void cancel(TopologyId topology) {
        recovery.forget(topology);
        List<ChannelId> opened = channels.forget(topology);
        if (opened == null) {
            return;
        }
        plans.remove(topology);
        decisions.forget(topology);
        List<StreamTask> stopping = tasks.values().stream().filter(t -> t.id().topology().equals(topology)).toList();
        stopping.forEach(task -> task.cancel(CANCEL_TIMEOUT));
        stopping.forEach(task -> {
            tasks.remove(task.id());
            incarnations.remove(task.id());
        });
        stopping.forEach(task -> rates.forget(task.id().toString()));
        channels.close(opened);
        LOG.info("Host {} cancelled {} tasks of topology '{}'", id, stopping.size(), topology);
    }

    /**
     * Tells {@code listener} of every peer host whose data-plane connection from this host dropped (see
     * {@link HostChannels#onPeerHostDisconnected}); called on the data plane's IO thread: hand off and return.
     */
    public void onPeerHostDisconnected(Consumer<HostId> listener) {
        channels.onPeerHostDisconnected(listener);
    }

    /** Starts checkpoint {@code checkpointId} at this host's source tasks of a topology. */
    public void triggerCheckpoint(TopologyId topology, long checkpointId) {
        tasks.values().stream().filter(task -> task.id().topology().equals(topology))
                .forEach(task -> task.triggerCheckpointIfSource(checkpointId));
    }

    public Set<TopologyId> topologies() {
        return channels.topologies();
    }

    public List<TaskReport> taskReports() {
        long now = System.nanoTime();
        return tasks.values().stream().sorted(Comparator.comparing(StreamTask::id))
                .map(task -> TaskReport.of(task, incarnationOf(task.id()), rates, now)).toList();
    }

    public Optional<StreamTask> task(TaskId taskId) {
        return Optional.ofNullable(tasks.get(taskId));
    }

    /** The value of a keyed state for one key of a task, read on the task thread. */
    public CompletableFuture<Optional<Object>> queryState(TaskId taskId, String stateName, String key) {
        return requireKeyed(taskId).call(driver -> ((KeyedProcessorDriver) driver).query(stateName, key));
    }

    /** Up to {@code limit} keys' values of a keyed state of a task, sorted by key, read on the task thread. */
    public CompletableFuture<Map<String, Object>> queryAll(TaskId taskId, String stateName, int limit) {
        return requireKeyed(taskId).call(driver -> ((KeyedProcessorDriver) driver).queryAll(stateName, limit));
    }

    /** The value of a task state (state of the whole task, not of a key), read on the task thread. */
    public CompletableFuture<Optional<Object>> queryTaskState(TaskId taskId, String stateName) {
        return requireKeyed(taskId).call(driver -> ((KeyedProcessorDriver) driver).queryTaskState(stateName));
    }

    private StreamTask requireKeyed(TaskId taskId) {
        StreamTask task = tasks.get(taskId);
        if (task == null) {
            throw new IllegalArgumentException("task " + taskId + " does not run on host " + id);
        }
        return task;
    }

    /** This host as its {@link InPlaceRecovery} uses it; called under the runtime's lock. */
    private final class Host implements RecoveryHost {

        @Override
        public StreamTask task(TaskId task) {
            return tasks.get(task);
        }

        @Override
        public void holdPlan(ExecutionPlan plan) {
            plans.putIfAbsent(plan.topology(), plan);
        }

        @Override
        public FrameSender openOutbound(ChannelId channel, String endpoint, long nextSeq, RecoveryMode mode,
                                        int incarnation) {
            return channels.openOutbound(channel, endpoint, nextSeq, mode, incarnation);
        }

        @Override
        public void preloadLog(ChannelId channel, List<LogSegment> segments) {
            channels.preloadLog(channel, segments);
        }

        @Override
        public void openInbound(ChannelId channel, long position, StreamTask task, int incarnation,
                                int senderIncarnation) {
            dataPlane.openInbound(channel, position, toTask(channel.topology(), task), incarnation, senderIncarnation);
        }

        @Override
        public void add(StreamTask task, int incarnation) {
            tasks.put(task.id(), task);
            incarnations.put(task.id(), incarnation);
        }

        @Override
        public void opened(ExecutionPlan plan, TaskPlacement placement, List<ChannelId> opened) {
            channels.opened(plan.topology(), opened, placement);
        }
    }

    @Override
    public synchronized void close() {
        for (TopologyId topology : channels.topologies()) {
            cancel(topology);
        }
        dataPlane.close();
        snapshotWriter.shutdown();
        try {
            if (!snapshotWriter.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("Host {}: snapshots were still being written at close", id);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
