package io.steadfast.runtime.recovery;


import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.OperatorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskFactory;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one entry point of a host's local recovery: starts lost tasks here in place (restored from their snapshots,
 * replaying their logged decisions, watched until they catch up), and makes ahead what it can while their host's
 * failure is being confirmed (operators restored, tasks prepared whole). The host calls {@link #recover},
 * {@link #prepare} and {@link #catchUpTargets} under its own lock; {@link #restoreAhead} from any thread.
 */
public final class InPlaceRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceRecovery.class);
    private static final byte[] NO_DECISIONS = new byte[0];
    /** The most tasks held prepared ahead of a recovery at once (a recovery of more prepares none of them). */
    static final int MAX_PREPARED = 64;
    /** The most operators held restored ahead at once: small, one per task of a failed host's share of a job. */
    static final int MAX_RESTORED_AHEAD = 256;

    private final HostId id;
    private final RecoveryHost host;
    private final TaskFactory taskFactory;
    private final CheckpointListener checkpoints;
    private final HostDecisions decisions;
    private final HeldAhead<OperatorDriver> restoredAhead = new HeldAhead<>(System::nanoTime, MAX_RESTORED_AHEAD);
    /** Tasks prepared ahead: each holds its output channels' frame buffers (32 KB each by default). */
    private final HeldAhead<PreparedTask> preparedAhead = new HeldAhead<>(System::nanoTime, MAX_PREPARED);
    private final AtomicLong preparedTaken = new AtomicLong();
    /** Catch-up targets for tasks not created here yet, by channel; guarded by the host's lock. */
    private final Map<ChannelId, Long> earlyCatchUpTargets = new HashMap<>();

    /**
     * @param checkpoints told of every snapshot a recovered task takes, with the incarnation it recovers as
     * @param decisions   the decisions the host keeps
     */
    public InPlaceRecovery(HostId id, RecoveryHost host, TaskFactory taskFactory, CheckpointListener checkpoints,
                           HostDecisions decisions) {
        this.id = id;
        this.host = host;
        this.taskFactory = taskFactory;
        this.checkpoints = checkpoints;
        this.decisions = decisions;
    }

    /**
     * Makes the operators of tasks this host may be asked to recover in place (the router suspects their host) and
     * restores each from its snapshot, ahead: a {@link #recover} from the same checkpoint at the plan's epoch
     * takes them instead of doing it on its path. A recovered keyed task restores one processing element per key.
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
            if (snapshot == null || host.task(spec.id()) != null) {
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
     * Each task first replays its logged decisions (see {@link DecisionReplay}); a recovered
     * source then sends the barriers it missed up to the latest triggered checkpoint. The decisions may still be
     * being collected ({@link InPlaceRestore#decisions()}): the tasks are created upstream first, each with its
     * channels opened and its thread started as soon as it exists, each restores its state and replays the decisions
     * known ahead ({@link InPlaceRestore#decisionsKnown()}), and none goes past them before the rest is in.
     *
     * @param tasksToRecover tasks placed on this host by {@code placement}, each with a snapshot
     * @throws IllegalArgumentException if a task is not placed here, has no snapshot, or its type is unknown
     */
    public List<TaskId> recover(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasksToRecover,
                                InPlaceRestore restore) {
        TopologyId topology = plan.topology();
        Map<TaskId, OperatorSnapshot> snapshots = restore.snapshots();
        List<TaskSpec> specs = recoverableHere(plan, placement, tasksToRecover, snapshots);
        List<ChannelId> opened = new ArrayList<>();
        Map<TaskId, StreamTask> created = new LinkedHashMap<>();
        host.holdPlan(plan);
        Map<TaskId, byte[]> known = restore.decisions().knownAhead();
        Map<TaskId, PreparedTask> prepared = takePrepared(plan, placement, tasksToRecover, restore.checkpointId());
        Map<TaskId, DecisionLog> logs = new LinkedHashMap<>();
        for (TaskId taskId : tasksToRecover) {
            OperatorSnapshot snapshot = snapshots.get(taskId);
            if (snapshot != null) {
                DecisionLog log = prepared.containsKey(taskId) ? prepared.get(taskId).log()
                        : new DecisionLog(snapshot.positions().decisionOffset());
                log.appendEncoded(known.getOrDefault(taskId, NO_DECISIONS));
                logs.put(taskId, log);
            }
        }
        decisions.putLogs(logs);
        // every log of the batch takes the decisions its task replays before any task of it replays them: a recovered
        // task's output carries the decisions of its same-host upstream tasks. Those known ahead are in already.
        CompletableFuture<Map<TaskId, byte[]>> rest = restore.decisions().collected().thenApply(collected -> {
            Map<TaskId, byte[]> after = new HashMap<>();
            logs.forEach((task, log) -> {
                byte[] more = decisionsAfter(task, known.getOrDefault(task, NO_DECISIONS),
                        collected.getOrDefault(task, NO_DECISIONS));
                log.appendEncoded(more);
                after.put(task, more);
            });
            return after;
        });
        // every task wired (channels open) before any starts: the live upstream tasks' replays flow to all of them from
        // the start, and the wiring of the last ones does not wait behind the first ones running (sources regenerating
        // at full speed would take the CPU from it)
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
                        channel -> decisions.forwarder(plan, placement, spec, channel, decisions::logOf),
                        checkpoints.of(taskId, placement.incarnationOf(taskId)), decisions.logOf(taskId));
                stateRestored = ahead.isPresent();
            }
            task.recoverInPlaceOnStart(new InPlaceStart(snapshot, restore.checkpointId(),
                    known.getOrDefault(taskId, NO_DECISIONS),
                    rest.thenApply(after -> after.getOrDefault(taskId, NO_DECISIONS)), stateRestored,
                    restore.requestedAtNanos(), spec.inputs().stream()
                            .filter(input -> !restore.recovering().contains(input.from()))
                            .map(InputChannel::channel).collect(Collectors.toSet())));
            for (InputChannel input : spec.inputs()) {
                long position = snapshot.positions().inputs().getOrDefault(input.channel().index(), 0L);
                host.openInbound(input.channel(), position, task, placement.incarnationOf(taskId),
                        placement.incarnationOf(input.from()));
                opened.add(input.channel());
            }
            host.add(task, placement.incarnationOf(taskId));
            Map<ChannelId, Long> early = takeEarlyCatchUpTargets(spec);
            if (!early.isEmpty()) {
                task.catchUpTargets(early);
            }
            created.put(taskId, task);
        }
        decisions.forwardRecoveredUpstreamLogs(plan, placement, running -> host.task(running) != null);
        // upstream first: a recovered source regenerates what every recovered task downstream of it replays
        created.values().forEach(task -> {
            task.start();
            task.triggerCheckpointIfSource(restore.latestTriggered());
        });
        host.opened(plan, placement, opened);
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
        FrameSender sender = host.openOutbound(channel, placement.endpointOf(channelSpec.to()), barrierSeq + 1,
                plan.recoveryMode(), placement.incarnationOf(taskId));
        List<LogSegment> preload = restore.preloads().get(channel);
        if (preload != null && !preload.isEmpty()) {
            host.preloadLog(channel, preload);
            LOG.info("Channel {} of recovered task {} replays its logged output up to seq {} from the"
                    + " checkpoint-service", channel, taskId, preload.get(preload.size() - 1).lastSeq());
        }
        return sender;
    }

    /**
     * Prepares the recovery in place of tasks this host may be asked to recover (the router suspects their host),
     * ahead: each task placed here by {@code placement} whose operator was restored ahead from {@code checkpointId}
     * ({@link #restoreAhead}) is made whole — its output channels' writers, its decision log at the snapshot's
     * offset, what its frames forward to receivers on other hosts under that placement — without opening any channel
     * or starting it. A {@link #recover} from the same checkpoint, at the plan's epoch, of exactly these tasks
     * with the same placement, takes them and only opens their channels and starts them; a recovery that differs in
     * anything, or that finds this host's other tasks' logs changed meanwhile, drops them and makes its tasks itself.
     * As nothing is opened or started ahead, a dropped task leaves nothing behind.
     *
     * @param snapshots the snapshot of each task the recovery would start here
     * @return the tasks prepared (none if any of them cannot be: a recovery takes all or none)
     */
    public List<TaskId> prepare(ExecutionPlan plan, TaskPlacement placement,
                                 Map<TaskId, OperatorSnapshot> snapshots, long checkpointId) {
        List<TaskSpec> specs = plan.tasks().stream().filter(spec -> snapshots.containsKey(spec.id())).toList();
        boolean preparable = specs.size() == snapshots.size() && specs.size() <= MAX_PREPARED
                && specs.stream().allMatch(spec -> id.equals(placement.hosts().get(spec.id()))
                        && host.task(spec.id()) == null
                        && restoredAhead.holds(spec.id(), checkpointId));
        if (!preparable) {
            return List.of();
        }
        Map<TaskId, DecisionLog> logs = new HashMap<>();
        specs.forEach(spec -> logs.put(spec.id(),
                new DecisionLog(snapshots.get(spec.id()).positions().decisionOffset())));
        Map<TaskId, PreparedTask> made = new LinkedHashMap<>();
        for (TaskSpec spec : specs) {
            Optional<OperatorDriver> driver = restoredAhead.take(spec.id(), checkpointId, plan.epoch());
            if (driver.isEmpty()) {
                return List.of(); // restored ahead at another epoch
            }
            Map<ChannelId, PendingFrameSender> senders = new LinkedHashMap<>();
            Map<TaskId, DecisionLog> forwarded = new HashMap<>();
            Function<TaskId, DecisionLog> lookup = task -> {
                if (logs.containsKey(task)) {
                    return logs.get(task);
                }
                DecisionLog running = decisions.logOf(task);
                forwarded.put(task, running);
                return running;
            };
            StreamTask task = taskFactory.create(spec, driver.get(),
                    channel -> senders.computeIfAbsent(channel, PendingFrameSender::new),
                    channel -> decisions.forwarder(plan, placement, spec, channel, lookup),
                    checkpoints.of(spec.id(), placement.incarnationOf(spec.id())), logs.get(spec.id()));
            made.put(spec.id(), new PreparedTask(task, logs.get(spec.id()), senders, placement, forwarded));
        }
        made.forEach((task, ready) -> preparedAhead.put(task, checkpointId, plan.epoch(), ready));
        return List.copyOf(made.keySet());
    }

    /** Whether {@code task}, prepared ahead from {@code checkpointId} ({@link #prepare}), waits to be taken. */
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
                        .allMatch(log -> decisions.logOf(log.getKey()) == log.getValue()));
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
     * Tells the tasks of a topology on this host, recovered in place, what their live upstream tasks had sent on
     * each channel when redirected to them (see {@link StreamTask#catchUpTargets}). The router sends them as soon as
     * the redirects answered, so they may come before the tasks they are for exist here: those are kept until
     * {@link #recover} creates the task (or the topology is cancelled).
     */
    public void catchUpTargets(ExecutionPlan plan, Map<ChannelId, Long> heads) {
        Map<TaskId, Map<ChannelId, Long>> byTask = new HashMap<>();
        heads.forEach((channel, head) -> {
            StreamTask receiver = plan == null ? null
                    : plan.channel(channel).map(spec -> host.task(spec.to())).orElse(null);
            if (receiver == null) {
                earlyCatchUpTargets.put(channel, head);
            } else {
                byTask.computeIfAbsent(receiver.id(), task -> new HashMap<>()).put(channel, head);
            }
        });
        byTask.forEach((task, targets) -> host.task(task).catchUpTargets(targets));
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

    /** Drops what was made ahead, and catch-up targets kept, for a topology cancelled here. */
    public void forget(TopologyId topology) {
        earlyCatchUpTargets.keySet().removeIf(channel -> channel.topology().equals(topology));
        restoredAhead.forget(topology);
        preparedAhead.forget(topology);
    }
}
