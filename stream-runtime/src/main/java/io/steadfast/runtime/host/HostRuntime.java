package io.steadfast.runtime.host;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.InboundListener;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.dataplane.OutboundChannel;
import io.steadfast.runtime.dataplane.Retention;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.DeterminantForwarder;
import io.steadfast.runtime.task.DeterminantLog;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.OperatorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskFactory;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
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
    private static final byte[] NO_DECISIONS = new byte[0];
    /** The most tasks held prepared ahead of a recovery at once (a recovery of more prepares none of them). */
    static final int MAX_PREPARED = 64;
    /** The most operators held restored ahead at once: small, one per task of a failed host's share of a job. */
    static final int MAX_RESTORED_AHEAD = 256;

    private final HostId id;
    private final DataPlane dataPlane;
    private final TaskFactory taskFactory;
    private final Map<TaskId, StreamTask> tasks = new ConcurrentSkipListMap<>();
    /** The incarnation of each task here that is not a first one (see {@link TaskPlacement}). */
    private final Map<TaskId, Integer> incarnations = new ConcurrentHashMap<>();
    /** The determinants each channel to another host carries, by channel (see {@link #forwarder}). */
    private final Map<ChannelId, DeterminantForwarder> forwarders = new ConcurrentHashMap<>();
    /** The lowest incarnation of each task elsewhere that this host's tasks take input from, once it was fenced. */
    private final Map<TaskId, Integer> senderFences = new ConcurrentHashMap<>();
    private final Map<TopologyId, List<ChannelId>> channelsByTopology = new ConcurrentHashMap<>();
    private final Map<ChannelId, OutboundChannel> outboundChannels = new ConcurrentHashMap<>();
    private final Map<TaskId, DeterminantLog> determinantLogs = new ConcurrentHashMap<>();
    private final Map<TopologyId, ExecutionPlan> plans = new ConcurrentHashMap<>();
    /** Catch-up targets for tasks not created here yet, by channel; guarded by this. */
    private final Map<ChannelId, Long> earlyCatchUpTargets = new HashMap<>();
    private final DeterminantStore upstreamDeterminants = new DeterminantStore();
    private final TaskRates rates = new TaskRates();
    /** The host of every peer data-plane endpoint in a placement deployed here, to name a peer that dropped. */
    private final Map<String, HostId> hostsByEndpoint = new ConcurrentHashMap<>();

    private final CheckpointListener checkpoints;
    private final ExecutorService snapshotWriter;
    private final HeldAhead<OperatorDriver> restoredAhead = new HeldAhead<>(System::nanoTime, MAX_RESTORED_AHEAD);
    /** Tasks prepared ahead: each holds its output channels' frame buffers (32 KB each by default). */
    private final HeldAhead<PreparedTask> preparedAhead = new HeldAhead<>(System::nanoTime, MAX_PREPARED);
    private final AtomicLong preparedTaken = new AtomicLong();

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
        this.snapshotWriter = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "steadfast-snapshot-writer-" + id);
            thread.setDaemon(true);
            return thread;
        });
        this.taskFactory = new TaskFactory(registry, settings, clock, snapshotWriter);
        this.checkpoints = checkpoints;
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
        if (channelsByTopology.containsKey(topology)) {
            throw new IllegalStateException("topology '" + topology + "' is already deployed on host " + id
                    + "; cancel it first");
        }
        List<TaskSpec> local = plan.tasks().stream().filter(task -> id.equals(placement.hostOf(task.id()))).toList();
        List<ChannelId> opened = new ArrayList<>();
        Map<ChannelId, LocalChannel> localChannels = new HashMap<>();
        Map<TaskId, StreamTask> created = new LinkedHashMap<>();
        local.forEach(spec -> determinantLogs.put(spec.id(), new DeterminantLog(0)));
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
                return openOutbound(channel, placement.endpointOf(channelSpec.to()), 1, plan.recoveryMode(),
                        placement.incarnationOf(spec.id()));
            }, channel -> forwarder(plan, placement, spec, channel, determinantLogs::get),
                    checkpoints.of(spec.id(), placement.incarnationOf(spec.id())), determinantLogs.get(spec.id()));
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
        channelsByTopology.put(topology, opened);
        placement.endpoints().forEach(this::learnPeer);
        created.values().forEach(StreamTask::start);
        LOG.info("Host {} started {} tasks of topology '{}' ({} local channels)", id, created.size(), topology,
                localChannels.size());
        return List.copyOf(created.keySet());
    }

    /** @param incarnation the sending task's incarnation: receivers that know a newer one refuse its frames */
    private FrameSender openOutbound(ChannelId channel, String endpoint, long nextSeq, RecoveryMode mode,
                                     int incarnation) {
        Retention retention = mode == RecoveryMode.LOCAL ? Retention.UNTIL_TRUNCATED : Retention.UNTIL_CONSUMED;
        OutboundChannel outbound = dataPlane.openOutbound(channel, endpoint, nextSeq, retention, incarnation);
        outboundChannels.put(channel, outbound);
        return new DataPlaneFrameSender(outbound);
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
     * Makes the operators of tasks this host may be asked to recover in place (the router suspects their host) and
     * restores each from its snapshot, ahead: a {@link #recoverInPlace} from the same checkpoint at the plan's epoch
     * takes them instead of doing it on its path. A recovered keyed task restores one processing element per key (a
     * count task of the 32-task benchmark job took 0.4-5 ms on a loaded machine, ten of them on one host at once).
     * Tasks already running here are skipped, and one whose snapshot does not restore is left to the recovery (which
     * fails it the usual way). Not under the runtime's lock: any thread, while the tasks run.
     *
     * @return the tasks whose operators were restored ahead
     */
    public List<TaskId> restoreAhead(ExecutionPlan plan, Map<TaskId, OperatorSnapshot> snapshots,
                                     long checkpointId) {
        List<TaskId> restored = new ArrayList<>();
        for (TaskSpec spec : plan.tasks()) {
            OperatorSnapshot snapshot = snapshots.get(spec.id());
            if (snapshot == null || tasks.containsKey(spec.id())) {
                continue;
            }
            try {
                OperatorDriver driver = taskFactory.driverFor(spec);
                snapshot.restoreInto(spec.type(), driver);
                restoredAhead.put(spec.id(), checkpointId, plan.epoch(), driver);
                restored.add(spec.id());
            } catch (RuntimeException e) {
                LOG.warn("Could not restore the operator of {} ahead from checkpoint {} ({}); a recovery restores it",
                        spec.id(), checkpointId, e.getMessage());
            }
        }
        return restored;
    }

    /** Whether the operator of {@code task} restored ahead from {@code checkpointId} waits for a recovery. */
    public boolean restoredAhead(TaskId task, long checkpointId) {
        return restoredAhead.holds(task, checkpointId);
    }

    /**
     * Starts the given tasks of a plan on this host in place of lost ones (local recovery): each is restored
     * from its snapshot with its channels resumed where they stood at the snapshot's barrier, and every channel
     * of theirs goes over the data plane (their peers run elsewhere, or were recovered too). The topology may
     * already have tasks here.
     *
     * Each task first replays its logged decisions (see {@link StreamTask#restoreInPlaceOnStart}); a recovered
     * source then sends the barriers it missed up to the latest triggered checkpoint. The decisions may still be
     * being collected ({@link InPlaceRestore#determinants()}): the tasks are created upstream first, each with its
     * channels opened and its thread started as soon as it exists, each restores its state and replays the decisions
     * known ahead ({@link InPlaceRestore#decisionsKnown()}), and none goes past them before the rest is in.
     *
     * @param tasksToRecover tasks placed on this host by {@code placement}, each with a snapshot
     * @throws IllegalArgumentException if a task is not placed here, has no snapshot, or its type is unknown
     */
    public synchronized List<TaskId> recoverInPlace(ExecutionPlan plan, TaskPlacement placement,
                                                    Set<TaskId> tasksToRecover, InPlaceRestore restore) {
        TopologyId topology = plan.topology();
        Map<TaskId, OperatorSnapshot> snapshots = restore.snapshots();
        List<TaskSpec> specs = recoverableHere(plan, placement, tasksToRecover, snapshots);
        List<ChannelId> opened = new ArrayList<>();
        Map<TaskId, StreamTask> created = new LinkedHashMap<>();
        plans.putIfAbsent(topology, plan);
        Map<TaskId, byte[]> known = restore.decisionsKnown();
        Map<TaskId, PreparedTask> prepared = takePrepared(plan, placement, tasksToRecover, restore.checkpointId());
        Map<TaskId, DeterminantLog> logs = new LinkedHashMap<>();
        for (TaskId taskId : tasksToRecover) {
            OperatorSnapshot snapshot = snapshots.get(taskId);
            if (snapshot != null) {
                DeterminantLog log = prepared.containsKey(taskId) ? prepared.get(taskId).log()
                        : new DeterminantLog(snapshot.positions().determinantOffset());
                log.appendEncoded(known.getOrDefault(taskId, NO_DECISIONS));
                logs.put(taskId, log);
            }
        }
        determinantLogs.putAll(logs);
        // every log of the batch takes the decisions its task replays before any task of it replays them: a recovered
        // task's output carries the determinants of its same-host upstream tasks. Those known ahead are in already.
        CompletableFuture<Map<TaskId, byte[]>> rest = restore.determinants().thenApply(decisions -> {
            Map<TaskId, byte[]> after = new HashMap<>();
            logs.forEach((task, log) -> {
                byte[] more = decisionsAfter(task, known.getOrDefault(task, NO_DECISIONS),
                        decisions.getOrDefault(task, NO_DECISIONS));
                log.appendEncoded(more);
                after.put(task, more);
            });
            return after;
        });
        // every task wired (channels open) before any starts: the live upstream tasks' replays flow to all of them from
        // the start, and the wiring of the last ones does not wait behind the first ones running (sources regenerating
        // at full speed took the CPU from it: 10 tasks were made and started over 7-22 ms, now 5-17 ms)
        for (TaskSpec spec : specs) {
            TaskId taskId = spec.id();
            OperatorSnapshot snapshot = snapshots.get(taskId);
            Function<ChannelId, FrameSender> outputs = channel -> openRecovered(plan, placement, restore, taskId,
                    snapshot, channel, opened);
            PreparedTask made = prepared.get(taskId);
            StreamTask task;
            boolean stateRestored;
            if (made != null) {
                made.senders().forEach((channel, sender) -> sender.connect(outputs.apply(channel)));
                task = made.task();
                stateRestored = true;
            } else {
                Optional<OperatorDriver> ahead = restoredAhead.take(taskId, restore.checkpointId(), plan.epoch());
                task = taskFactory.create(spec, ahead.orElseGet(() -> taskFactory.driverFor(spec)), outputs,
                        channel -> forwarder(plan, placement, spec, channel, determinantLogs::get),
                        checkpoints.of(taskId, placement.incarnationOf(taskId)), determinantLogs.get(taskId));
                stateRestored = ahead.isPresent();
            }
            task.restoreInPlaceOnStart(snapshot, restore.checkpointId(), known.getOrDefault(taskId, NO_DECISIONS),
                    rest.thenApply(decisions -> decisions.getOrDefault(taskId, NO_DECISIONS)), stateRestored);
            task.watchCatchUp(restore.requestedAtNanos(), spec.inputs().stream()
                    .filter(input -> !restore.recovering().contains(input.from()))
                    .map(InputChannel::channel).collect(Collectors.toSet()));
            for (InputChannel input : spec.inputs()) {
                long position = snapshot.positions().inputs().getOrDefault(input.channel().index(), 0L);
                dataPlane.openInbound(input.channel(), position, toTask(topology, task),
                        placement.incarnationOf(taskId), placement.incarnationOf(input.from()));
                opened.add(input.channel());
            }
            tasks.put(taskId, task);
            incarnations.put(taskId, placement.incarnationOf(taskId));
            Map<ChannelId, Long> early = takeEarlyCatchUpTargets(spec);
            if (!early.isEmpty()) {
                task.catchUpTargets(early);
            }
            created.put(taskId, task);
        }
        forwardRecoveredUpstreamLogs(plan, placement);
        // upstream first: a recovered source regenerates what every recovered task downstream of it replays
        created.values().forEach(task -> {
            task.start();
            task.triggerCheckpointIfSource(restore.latestTriggered());
        });
        channelsByTopology.computeIfAbsent(topology, t -> new ArrayList<>()).addAll(opened);
        placement.endpoints().forEach(this::learnPeer);
        preparedTaken.addAndGet(prepared.size());
        LOG.info("Host {} recovered {} tasks of topology '{}' in place from checkpoint {}{}: {}", id, created.size(),
                topology, restore.checkpointId(), prepared.isEmpty() ? "" : ", prepared ahead", created.keySet());
        return List.copyOf(created.keySet());
    }

    /**
     * Opens an output channel of a task recovered in place at the position of its snapshot's barrier, towards the
     * receiver's host in {@code placement}, with what its predecessor logged to the checkpoint-service (if read) to
     * replay first.
     */
    private FrameSender openRecovered(ExecutionPlan plan, TaskPlacement placement, InPlaceRestore restore,
                                      TaskId taskId, OperatorSnapshot snapshot, ChannelId channel,
                                      List<ChannelId> opened) {
        ChannelSpec channelSpec = plan.channel(channel).orElseThrow();
        long barrierSeq = snapshot.positions().outputs().getOrDefault(channel.index(), 0L);
        opened.add(channel);
        FrameSender sender = openOutbound(channel, placement.endpointOf(channelSpec.to()), barrierSeq + 1,
                plan.recoveryMode(), placement.incarnationOf(taskId));
        List<LogSegment> preload = restore.preloads().get(channel);
        if (preload != null && !preload.isEmpty()) {
            outboundChannels.get(channel).preloadLog(preload);
            LOG.info("Channel {} of recovered task {} replays its logged output up to seq {} from the"
                    + " checkpoint-service", channel, taskId, preload.get(preload.size() - 1).lastSeq());
        }
        return sender;
    }

    /**
     * Prepares the recovery in place of tasks this host may be asked to recover (the router suspects their host),
     * ahead: each task placed here by {@code placement} whose operator was restored ahead from {@code checkpointId}
     * ({@link #restoreAhead}) is made whole — its output channels' writers, its determinant log at the snapshot's
     * offset, what its frames forward to receivers on other hosts under that placement — without opening any channel
     * or starting it. A {@link #recoverInPlace} from the same checkpoint, at the plan's epoch, of exactly these tasks
     * with the same placement, takes them and only opens their channels and starts them; a recovery that differs in
     * anything, or that finds this host's other tasks' logs changed meanwhile, drops them and makes its tasks itself.
     * As nothing is opened or started ahead, a dropped task leaves nothing behind. Making ten tasks of the 32-task
     * benchmark job took 9-13 ms on the recovery's path on a loaded machine.
     *
     * @param snapshots the snapshot of each task the recovery would start here
     * @return the tasks prepared (none if any of them cannot be: a recovery takes all or none)
     */
    public synchronized List<TaskId> prepareRecovery(ExecutionPlan plan, TaskPlacement placement,
                                                     Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        List<TaskSpec> specs = plan.tasks().stream().filter(spec -> snapshots.containsKey(spec.id())).toList();
        boolean preparable = specs.size() == snapshots.size() && specs.size() <= MAX_PREPARED
                && specs.stream().allMatch(spec -> id.equals(placement.hosts().get(spec.id()))
                        && !tasks.containsKey(spec.id())
                        && restoredAhead.holds(spec.id(), checkpointId));
        if (!preparable) {
            return List.of();
        }
        Map<TaskId, DeterminantLog> logs = new HashMap<>();
        specs.forEach(spec -> logs.put(spec.id(),
                new DeterminantLog(snapshots.get(spec.id()).positions().determinantOffset())));
        Map<TaskId, PreparedTask> made = new LinkedHashMap<>();
        for (TaskSpec spec : specs) {
            Optional<OperatorDriver> driver = restoredAhead.take(spec.id(), checkpointId, plan.epoch());
            if (driver.isEmpty()) {
                return List.of(); // restored ahead at another epoch
            }
            Map<ChannelId, PendingFrameSender> senders = new LinkedHashMap<>();
            Map<TaskId, DeterminantLog> forwarded = new HashMap<>();
            Function<TaskId, DeterminantLog> lookup = task -> {
                if (logs.containsKey(task)) {
                    return logs.get(task);
                }
                DeterminantLog running = determinantLogs.get(task);
                forwarded.put(task, running);
                return running;
            };
            StreamTask task = taskFactory.create(spec, driver.get(),
                    channel -> senders.computeIfAbsent(channel, PendingFrameSender::new),
                    channel -> forwarder(plan, placement, spec, channel, lookup),
                    checkpoints.of(spec.id(), placement.incarnationOf(spec.id())), logs.get(spec.id()));
            made.put(spec.id(), new PreparedTask(task, logs.get(spec.id()), senders, placement, forwarded));
        }
        made.forEach((task, ready) -> preparedAhead.put(task, checkpointId, plan.epoch(), ready));
        return List.copyOf(made.keySet());
    }

    /** Whether {@code task}, prepared ahead from {@code checkpointId} ({@link #prepareRecovery}), waits to be taken. */
    public boolean preparedAhead(TaskId task, long checkpointId) {
        return preparedAhead.holds(task, checkpointId);
    }

    /** How many tasks prepared ahead recoveries on this host have taken. */
    public long preparedTasksTaken() {
        return preparedTaken.get();
    }

    /**
     * The tasks prepared ahead for exactly this recovery, taken out; none if any of them is missing, was prepared for
     * another placement, or would forward a log of this host's other tasks that changed since (those prepared are
     * dropped then: their forwarders would name the wrong logs).
     */
    private Map<TaskId, PreparedTask> takePrepared(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> recovering,
                                                   long checkpointId) {
        Map<TaskId, PreparedTask> taken = new HashMap<>();
        recovering.forEach(task -> preparedAhead.take(task, checkpointId, plan.epoch())
                .ifPresent(ready -> taken.put(task, ready)));
        if (taken.isEmpty()) {
            return Map.of();
        }
        boolean whole = taken.size() == recovering.size() && taken.values().stream().allMatch(ready ->
                ready.placement().equals(placement) && ready.logsForwarded().entrySet().stream()
                        .allMatch(log -> determinantLogs.get(log.getKey()) == log.getValue()));
        if (!whole) {
            LOG.info("Host {} drops the {} tasks it prepared ahead of the recovery of {} tasks from checkpoint {}: they"
                    + " were prepared for another recovery", id, taken.size(), recovering.size(), checkpointId);
            return Map.of();
        }
        return taken;
    }

    /**
     * The decisions of a recovered task in {@code all} (collected once the failure was confirmed) after those in
     * {@code known} (fetched ahead, replayed already); none if {@code known} holds as many or more (a host that held
     * more may be gone since: what the task replayed of them is what it decided before).
     *
     * @throws IllegalStateException if neither begins the other: the task cannot go on where it replayed to
     */
    private static byte[] decisionsAfter(TaskId task, byte[] known, byte[] all) {
        int common = Math.min(known.length, all.length);
        if (!Arrays.equals(known, 0, common, all, 0, common)) {
            throw new IllegalStateException("the logged decisions of task " + task + " collected once its host's"
                    + " failure was confirmed do not go on from those fetched ahead and replayed already");
        }
        return all.length > known.length ? Arrays.copyOfRange(all, known.length, all.length) : NO_DECISIONS;
    }

    /**
     * Hands each arriving frame of a channel to its task, storing first the determinants the frame starts with (IO
     * thread): a task held up — no credit towards a receiver that died with the frame's sender — may take the frame
     * in only after the sender's recovery collected its decisions from here, and must then find them replayed.
     * A malformed frame is left to its task, which drops and counts it.
     */
    private InboundListener toTask(TopologyId topology, StreamTask task) {
        return frame -> {
            upstreamDeterminants.receiveLeading(topology, frame);
            task.deliver(new DataPlaneInputFrame(frame));
        };
    }

    /**
     * The specs of {@code tasksToRecover}, upstream first (the plan's order), each checked before any is created: in
     * the plan, placed on this host, with a snapshot.
     */
    private List<TaskSpec> recoverableHere(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasksToRecover,
                                           Map<TaskId, OperatorSnapshot> snapshots) {
        for (TaskId taskId : tasksToRecover) {
            if (plan.task(taskId).isEmpty()) {
                throw new IllegalArgumentException("task " + taskId + " is not in the plan of " + plan.topology());
            }
            if (!id.equals(placement.hostOf(taskId))) {
                throw new IllegalArgumentException("task " + taskId + " is placed on " + placement.hostOf(taskId)
                        + ", not on host " + id);
            }
            if (snapshots.get(taskId) == null) {
                throw new IllegalArgumentException("task " + taskId + " has no snapshot to recover from");
            }
        }
        return plan.tasks().stream().filter(spec -> tasksToRecover.contains(spec.id())).toList();
    }

    /**
     * What the frames of an output channel carry for replays: nothing if the receiver runs on this host (it
     * would be lost with the sender); else the sender's determinants and those of its upstream tasks on this
     * host, found through the placement (whose decisions the sender's output depends on, and which would be
     * lost with it).
     */
    private DeterminantForwarder forwarder(ExecutionPlan plan, TaskPlacement placement, TaskSpec sender,
                                           ChannelId channel, Function<TaskId, DeterminantLog> logs) {
        ChannelSpec channelSpec = plan.channel(channel).orElseThrow();
        if (id.equals(placement.hostOf(channelSpec.to()))) {
            return null;
        }
        DeterminantForwarder forwarder = new DeterminantForwarder(originsUpstreamHere(plan, placement, sender.id(),
                logs));
        forwarders.put(channel, forwarder);
        return forwarder;
    }

    /**
     * The logs a channel of {@code sender} to another host carries: the sender's and those of its upstream tasks on
     * this host, transitively, as {@code placement} puts them.
     */
    private List<DeterminantForwarder.Origin> originsUpstreamHere(ExecutionPlan plan, TaskPlacement placement,
                                                                   TaskId sender,
                                                                   Function<TaskId, DeterminantLog> logs) {
        List<DeterminantForwarder.Origin> origins = new ArrayList<>();
        Set<TaskId> seen = new HashSet<>();
        ArrayDeque<TaskId> toVisit = new ArrayDeque<>(List.of(sender));
        while (!toVisit.isEmpty()) {
            TaskId task = toVisit.poll();
            if (!seen.add(task)) {
                continue;
            }
            DeterminantLog log = logs.apply(task);
            if (log != null) {
                origins.add(new DeterminantForwarder.Origin(plan.tasks().indexOf(plan.task(task).orElseThrow()), log,
                        0));
            }
            for (InputChannel input : plan.task(task).orElseThrow().inputs()) {
                if (id.equals(placement.hostOf(input.from()))) {
                    toVisit.add(input.from());
                }
            }
        }
        return origins;
    }

    /**
     * After tasks were recovered onto this host: the channels to other hosts of the tasks that ran here already carry
     * from now on the logs of those recovered upstream of them. A recovered task's channels to its receivers here
     * carry no determinants (they would be lost with it), so without this its decisions would be held by no other
     * host, and a later loss of this host would lose them: the task would regenerate its output differently (a source
     * its barriers elsewhere) from what its receivers' receivers have seen.
     */
    private void forwardRecoveredUpstreamLogs(ExecutionPlan plan, TaskPlacement placement) {
        forwarders.forEach((channel, forwarder) -> {
            Optional<TaskId> sender = plan.channel(channel).map(ChannelSpec::from);
            if (sender.isEmpty() || !tasks.containsKey(sender.get())) {
                return; // of another topology or epoch, or of a task prepared ahead and not running
            }
            originsUpstreamHere(plan, placement, sender.get(), determinantLogs::get).stream()
                    .filter(origin -> !forwarder.carries(origin.taskIndex())).forEach(forwarder::add);
        });
    }

    /**
     * The determinants of a task of a deployed topology that arrived here with its output, from
     * {@code fromOffset} on, if this host holds them from there.
     */
    public Optional<byte[]> determinantsOf(TaskId task, long fromOffset) {
        ExecutionPlan plan = plans.get(task.topology());
        if (plan == null || plan.task(task).isEmpty()) {
            return Optional.empty();
        }
        return upstreamDeterminants.read(task.topology(), plan.tasks().indexOf(plan.task(task).get()), fromOffset);
    }

    /**
     * The earliest run of a task's determinants that arrived here with its output: what a host recovering the task
     * collects while it still fetches the snapshot that says from which offset the task replays.
     */
    public Optional<HeldDeterminants> earliestDeterminantsOf(TaskId task) {
        ExecutionPlan plan = plans.get(task.topology());
        if (plan == null || plan.task(task).isEmpty()) {
            return Optional.empty();
        }
        return upstreamDeterminants.readEarliest(task.topology(), plan.tasks().indexOf(plan.task(task).get()));
    }

    /**
     * The receiving task of an outbound channel of this host now runs at {@code endpoint}: the channel
     * synchronises with it and replays what it lacks from the output log.
     *
     * @throws IllegalArgumentException if this host has no such outbound channel
     */
    public void redirect(ChannelId channel, String endpoint) {
        OutboundChannel outbound = outboundChannels.get(channel);
        if (outbound == null) {
            throw new IllegalArgumentException("host " + id + " has no outbound channel " + channel);
        }
        outbound.redirect(endpoint);
    }

    /**
     * Redirects every outbound channel of this host towards one of {@code newEndpoints}' tasks (moved there by
     * a local recovery) to that task's new endpoint, and learns the host behind each new endpoint ({@code hosts}):
     * a connection there that drops is then reported as that host's ({@link #onPeerHostDisconnected}). Without it,
     * a host that took over tasks and died later was found only by its missed heartbeats (800 ms by default).
     *
     * @param hosts the host of each new endpoint (may name fewer, or none)
     * @return the channels redirected
     */
    public Map<ChannelId, Long> redirectChannelsTo(TopologyId topology, Map<TaskId, String> newEndpoints,
                                                   Map<String, HostId> hosts) {
        return redirectChannelsTo(topology, newEndpoints, hosts, Map.of());
    }

    /**
     * As {@link #redirectChannelsTo(TopologyId, Map, Map)}, the moved tasks running as {@code incarnations} now: from
     * then on this host refuses what their earlier incarnations send on the channels into its tasks, and what they
     * answer on its channels towards them. Refused before this returns, so that what this host holds of their
     * decisions, read after, is all it will ever take in of the earlier incarnations.
     */
    public Map<ChannelId, Long> redirectChannelsTo(TopologyId topology, Map<TaskId, String> newEndpoints,
                                                   Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        hosts.forEach((endpoint, host) -> learnPeer(host, endpoint));
        ExecutionPlan plan = plans.get(topology);
        if (plan == null) {
            return Map.of();
        }
        fenceChannelsFrom(plan, incarnations);
        Map<ChannelId, Long> heads = new TreeMap<>();
        for (ChannelId channel : outboundChannelsTo(plan, newEndpoints.keySet())) {
            TaskId receiver = plan.channel(channel).orElseThrow().to();
            heads.put(channel, outboundChannels.get(channel).nextSeq() - 1);
            redirect(channel, newEndpoints.get(receiver));
            Integer incarnation = incarnations.get(receiver);
            if (incarnation != null) {
                dataPlane.fenceOutbound(channel, incarnation);
            }
        }
        if (!heads.isEmpty()) {
            // one line per redirect: a host of a large job has hundreds of channels towards a failed host's tasks
            LOG.info("Host {} redirected {} channels of topology '{}' towards {} moved tasks", id, heads.size(),
                    topology, newEndpoints.size());
        }
        return heads;
    }

    /**
     * Readies this host to answer what it holds of {@code task}'s decisions to the task's incarnation
     * {@code incarnation} (recovering it elsewhere): refuses the task's earlier incarnations on its channels into tasks
     * here first, as a redirect does, so that the answer is all this host will ever take in of them.
     *
     * @return false, and nothing fenced, if this host knows a newer incarnation of the task: the one asking was
     *         superseded, and its recovery must not go on from what this host holds
     */
    public synchronized boolean fenceForDecisionsOf(TaskId task, int incarnation) {
        if (senderFences.getOrDefault(task, 0) > incarnation) {
            return false;
        }
        ExecutionPlan plan = plans.get(task.topology());
        if (plan != null) {
            fenceChannelsFrom(plan, Map.of(task, incarnation));
        }
        return true;
    }

    /** Refuses, on every channel from one of {@code incarnations}' tasks into a task here, its earlier incarnations. */
    private void fenceChannelsFrom(ExecutionPlan plan, Map<TaskId, Integer> incarnations) {
        if (incarnations.isEmpty()) {
            return;
        }
        incarnations.forEach((task, incarnation) -> senderFences.merge(task, incarnation, Math::max));
        for (StreamTask task : List.copyOf(tasks.values())) {
            plan.task(task.id()).ifPresent(spec -> spec.inputs().forEach(input -> {
                Integer incarnation = incarnations.get(input.from());
                if (incarnation != null) {
                    dataPlane.fenceInbound(input.channel(), incarnation);
                }
            }));
        }
    }

    /**
     * Tells the tasks of a topology on this host, recovered in place, what their live upstream tasks had sent on
     * each channel when redirected to them (see {@link StreamTask#catchUpTargets}). The router sends them as soon as
     * the redirects answered, so they may come before the tasks they are for exist here: those are kept until
     * {@link #recoverInPlace} creates the task (or the topology is cancelled).
     */
    public synchronized void catchUpTargets(TopologyId topology, Map<ChannelId, Long> heads) {
        ExecutionPlan plan = plans.get(topology);
        Map<TaskId, Map<ChannelId, Long>> byTask = new HashMap<>();
        heads.forEach((channel, head) -> {
            StreamTask receiver = plan == null ? null
                    : plan.channel(channel).map(spec -> tasks.get(spec.to())).orElse(null);
            if (receiver == null) {
                earlyCatchUpTargets.put(channel, head);
            } else {
                byTask.computeIfAbsent(receiver.id(), task -> new HashMap<>()).put(channel, head);
            }
        });
        byTask.forEach((task, targets) -> tasks.get(task).catchUpTargets(targets));
    }

    /** The catch-up targets that arrived before {@code spec}'s task was created here, taken out. */
    private Map<ChannelId, Long> takeEarlyCatchUpTargets(TaskSpec spec) {
        Map<ChannelId, Long> early = new HashMap<>();
        for (InputChannel input : spec.inputs()) {
            Long head = earlyCatchUpTargets.remove(input.channel());
            if (head != null) {
                early.put(input.channel(), head);
            }
        }
        return early;
    }

    /** The outbound data-plane channels of this host whose receiving end is one of {@code receivers}. */
    public List<ChannelId> outboundChannelsTo(ExecutionPlan plan, Set<TaskId> receivers) {
        return outboundChannels.keySet().stream()
                .filter(channel -> plan.channel(channel).map(spec -> receivers.contains(spec.to())).orElse(false))
                .sorted(Comparator.comparingInt(ChannelId::index)).toList();
    }

    /** Checkpoint {@code checkpointId} of a topology completed: its tasks here may truncate their output logs. */
    public void checkpointCompleted(TopologyId topology, long checkpointId) {
        tasks.values().stream().filter(task -> task.id().topology().equals(topology))
                .forEach(task -> task.checkpointCompleted(checkpointId));
    }

    /** Stops this host's tasks of a topology and closes their channels; unknown topologies are ignored. */
    public synchronized void cancel(TopologyId topology) {
        earlyCatchUpTargets.keySet().removeIf(channel -> channel.topology().equals(topology));
        restoredAhead.forget(topology);
        preparedAhead.forget(topology);
        List<ChannelId> channels = channelsByTopology.remove(topology);
        if (channels == null) {
            return;
        }
        plans.remove(topology);
        senderFences.keySet().removeIf(task -> task.topology().equals(topology));
        forwarders.keySet().removeIf(channel -> channel.topology().equals(topology));
        upstreamDeterminants.forget(topology);
        determinantLogs.keySet().removeIf(task -> task.topology().equals(topology));
        List<StreamTask> stopping = tasks.values().stream().filter(t -> t.id().topology().equals(topology)).toList();
        stopping.forEach(task -> task.cancel(CANCEL_TIMEOUT));
        stopping.forEach(task -> {
            tasks.remove(task.id());
            incarnations.remove(task.id());
        });
        stopping.forEach(task -> rates.forget(task.id().toString()));
        for (ChannelId channel : channels) {
            outboundChannels.remove(channel);
            dataPlane.closeOutbound(channel);
            dataPlane.closeInbound(channel);
        }
        LOG.info("Host {} cancelled {} tasks of topology '{}'", id, stopping.size(), topology);
    }

    /** Learns that {@code endpoint} is {@code host}'s data plane (this host's own left out). */
    private void learnPeer(HostId host, String endpoint) {
        if (!host.equals(id)) {
            hostsByEndpoint.put(endpoint, host);
        }
    }

    /**
     * Tells {@code listener} of every peer host whose data-plane connection from this host dropped: a hint that
     * the peer may be dead (see {@link io.steadfast.runtime.dataplane.PeerListener}). The peer is named from the
     * placements deployed or recovered here and the hosts named with redirects; drops of endpoints none of them named
     * are ignored. Called on the data plane's IO thread: hand off and return.
     */
    public void onPeerHostDisconnected(Consumer<HostId> listener) {
        dataPlane.addPeerListener(endpoint -> {
            HostId peer = hostsByEndpoint.get(endpoint);
            if (peer == null) {
                LOG.debug("Host {}: connection to {} dropped, which no placement here names", id, endpoint);
            } else {
                listener.accept(peer);
            }
        });
    }

    /** Starts checkpoint {@code checkpointId} at this host's source tasks of a topology. */
    public void triggerCheckpoint(TopologyId topology, long checkpointId) {
        tasks.values().stream().filter(task -> task.id().topology().equals(topology))
                .forEach(task -> task.triggerCheckpointIfSource(checkpointId));
    }

    public Set<TopologyId> topologies() {
        return new TreeSet<>(channelsByTopology.keySet());
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

    private StreamTask requireKeyed(TaskId taskId) {
        StreamTask task = tasks.get(taskId);
        if (task == null) {
            throw new IllegalArgumentException("task " + taskId + " does not run on host " + id);
        }
        return task;
    }

    @Override
    public synchronized void close() {
        for (TopologyId topology : List.copyOf(channelsByTopology.keySet())) {
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
