package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.recovery.InPlaceRestore;
import io.steadfast.runtime.task.CheckpointListener;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Local recovery on real sockets, without the services: the host of the counting tasks dies mid-stream, its
 * tasks are restored in place on a standby host from the latest completed checkpoint, the source replays its
 * output log to them, and the sinks drop the regenerated records they already have. Every key is exact, and
 * the source and sink tasks were never restarted or rolled back.
 */
@Timeout(120)
class LocalRecoveryTest {

    private static final long COUNT = 90_000;
    private static final int KEYS = 300;

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private final List<HostRuntime> live = new CopyOnWriteArrayList<>();
    private final List<HostRuntime> all = new ArrayList<>();
    private final CompletingCollector collector = new CompletingCollector();
    private final ScheduledExecutorService coordinator = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong nextCheckpoint = new AtomicLong();

    @AfterEach
    void stop() {
        coordinator.shutdownNow();
        all.forEach(HostRuntime::close);
    }

    /**
     * Stands in for the checkpoint-service and the router's coordinator: keeps every snapshot, and once every
     * task of the plan has one for a checkpoint, tells the live hosts it completed (their output logs truncate).
     */
    private final class CompletingCollector implements CheckpointListener {

        final Map<Long, Map<TaskId, OperatorSnapshot>> byCheckpoint = new ConcurrentSkipListMap<>();
        final AtomicLong latestComplete = new AtomicLong();
        volatile int taskCount = Integer.MAX_VALUE;
        volatile ExecutionPlan plan;
        /**
         * Set from a failure until its recovery is under way, as the router aborts pending checkpoints when it
         * detects one: a checkpoint completing meanwhile would truncate the output logs past the checkpoint
         * the recovery restores from.
         */
        volatile boolean recovering;

        @Override
        public void onSnapshot(TaskId task, int incarnation, long checkpointId, OperatorSnapshot snapshot,
                               long syncNanos) {
            Map<TaskId, OperatorSnapshot> snapshots = byCheckpoint.computeIfAbsent(checkpointId,
                    id -> new ConcurrentHashMap<>());
            snapshots.put(task, snapshot);
            if (!recovering && snapshots.size() == taskCount
                    && latestComplete.getAndAccumulate(checkpointId, Math::max) < checkpointId) {
                live.forEach(host -> host.checkpointCompleted(plan.topology(), checkpointId));
            }
        }
    }

    /** What the standby makes ahead of the recovery, while the failure would be being confirmed. */
    enum Ahead {
        NOTHING,
        /** The lost tasks' operators, restored from their snapshots. */
        OPERATORS,
        /** The lost tasks whole, for the placement the recovery has: it only opens their channels and starts them. */
        TASKS,
        /** The lost tasks whole, for another placement than the recovery's: it drops them and makes its own. */
        TASKS_FOR_ANOTHER_PLACEMENT
    }

    private Ahead ahead = Ahead.NOTHING;

    private HostRuntime startHost(String name) {
        return startHost(name, TaskSettings.defaults());
    }

    private HostRuntime startHost(String name, TaskSettings settings) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                settings, Clock.systemUTC(), collector);
        all.add(host);
        live.add(host);
        return host;
    }

    /**
     * The standby may make the lost tasks' operators, or the tasks whole, while the failure is still being confirmed
     * (as it does once it fetched their snapshots ahead), and the recovery takes them.
     */
    @ParameterizedTest(name = "made ahead: {0}")
    @EnumSource(Ahead.class)
    void recoversTheTasksOfALostHostAloneWhileEveryOtherTaskKeepsRunningAndEveryKeyIsExact(Ahead madeAhead) {
        ahead = madeAhead;
        ExecutionPlan plan = plan("""
                {"id": "local", "operators": [
                  {"id": "src", "type": "generator", "parallelism": 1,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 30000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "src"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""");
        HostRuntime sources = startHost("host-a");
        HostRuntime counters = startHost("host-b");
        HostRuntime sinks = startHost("host-c");
        HostRuntime standby = startHost("host-d");
        TaskPlacement placement = deploy(plan, task -> switch (task.operator().value()) {
            case "src" -> sources;
            case "count" -> counters;
            default -> sinks;
        });
        Map<TaskId, StreamTask> survivorsBefore = tasksOn(List.of(sources, sinks));
        checkpointUntilTwoCompleted(plan, sources, counters);

        // as the router does: redirects and catch-up targets go out while the standby still creates the tasks
        Map<TaskId, byte[]> decisions = loseAndRecover(plan, placement, counters, standby, true,
                Decisions.WITH_THE_SNAPSHOTS);

        assertThat(decisions).as("the sinks hold the counters' logs").containsOnlyKeys(
                TaskId.parse("local/count#0"), TaskId.parse("local/count#1"));
        assertThat(sinkResults(plan, sinks)).isEqualTo(MultiHostKeyedCountTest.expectedCounts(COUNT, KEYS));
        assertThat(tasksOn(List.of(sources, sinks))).as("no source or sink task was replaced")
                .containsExactlyInAnyOrderEntriesOf(survivorsBefore);
        assertThat(recordsIn(sources, "src")).as("the source never rewound: it emitted every event once")
                .isEqualTo(COUNT);
        assertThat(recordsIn(sinks, "sink")).as("no regenerated count reached a sink twice").isEqualTo(COUNT);
        assertThat(recordsIn(standby, "count")).as("the recovered tasks reprocessed only what followed the checkpoint")
                .isPositive().isLessThan(COUNT);
        assertThat(standby.taskReports()).as("each recovered task caught up, having taken in what was replayed to it")
                .allSatisfy(report -> assertThat(report.catchUp()).isNotNull()
                        .satisfies(catchUp -> assertThat(catchUp.records()).isPositive()));
        List<HostId> suspected = new CopyOnWriteArrayList<>();
        standby.onPeerHostDisconnected(suspected::add);
        sinks.close();
        live.remove(sinks);
        all.remove(sinks);
        await("the standby names the sinks' host, known from the recovery's placement, when its connection there"
                + " drops").atMost(Duration.ofSeconds(5)).until(() -> suspected.contains(sinks.id()));
    }

    /**
     * A source and the multi-input counting tasks it feeds die together: the counters must take their input in
     * the logged order (decisions their receivers hold) and the source must send its barriers where it did,
     * or the recounting downstream tasks, which never stop, would count some updates twice and others never.
     * A recovering host creates the tasks while it still collects their decisions: they may come in only after the
     * tasks run, redirected to, with input waiting; and the first of them may be known ahead, replayed before the
     * rest comes in.
     */
    @ParameterizedTest(name = "decisions {0}, made ahead: {1}")
    @MethodSource("decisionsAndWhatIsMadeAhead")
    void replaysTheLoggedDecisionsOfMultiInputTasksLostTogetherWithTheirSourceAndEveryKeyIsExact(
            Decisions decisions, Ahead madeAhead) {
        ahead = madeAhead;
        ExecutionPlan plan = plan("""
                {"id": "replay", "operators": [
                  {"id": "src", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 20000, "pacedSince": PACED_SINCE}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "src"}]},
                  {"id": "recount", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "count"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "recount"}]}
                ]}""".replace("PACED_SINCE", Long.toString(System.currentTimeMillis())));
        HostRuntime first = startHost("host-a");
        HostRuntime lostHost = startHost("host-b");
        HostRuntime downstream = startHost("host-c");
        // a frame there goes out once it holds 512 KiB, or 30 s after its first record: what a recovered task
        // regenerates (at once: the sources are paced since they were deployed) must not wait for that to reach the
        // tasks recovered with it
        TaskSettings defaults = TaskSettings.defaults();
        HostRuntime standby = startHost("host-d", new TaskSettings(512 * 1024, 100_000, Duration.ofSeconds(30),
                Duration.ofSeconds(30), Integer.MAX_VALUE, defaults.sourceBatch(), defaults.watermarkInterval()));
        TaskId src0 = TaskId.parse("replay/src#0");
        TaskPlacement placement = deploy(plan, task -> task.equals(src0) ? first
                : task.operator().value().equals("src") || task.operator().value().equals("count") ? lostHost
                : downstream);
        Map<TaskId, StreamTask> survivorsBefore = tasksOn(List.of(first, downstream));
        checkpointUntilTwoCompleted(plan, first, lostHost);

        Map<TaskId, byte[]> logged = loseAndRecover(plan, placement, lostHost, standby, false, decisions);

        assertThat(logged).as("the receivers hold the lost counters' decisions")
                .containsKeys(TaskId.parse("replay/count#0"), TaskId.parse("replay/count#1"));
        await().atMost(Duration.ofSeconds(20)).until(() -> standby.taskReports().stream()
                .allMatch(report -> report.catchUp() != null));
        // each caught up in 10-50 ms, or 400 ms after the decisions held back here; without sending what the recovered
        // source regenerated as soon as it had nothing more to do, the counters waited 2.8 s for its frames to fill
        assertThat(standby.taskReports()).as("each recovered task caught up without waiting for frames to fill")
                .allSatisfy(report -> assertThat(report.catchUp().millis()).isLessThan(1_500));
        assertThat(sinkResults(plan, downstream)).as("every count update reached the recount exactly once")
                .isEqualTo(MultiHostKeyedCountTest.expectedCounts(COUNT, KEYS));
        assertThat(tasksOn(List.of(first, downstream))).as("no live task was replaced")
                .containsExactlyInAnyOrderEntriesOf(survivorsBefore);
        assertThat(recordsIn(first, "src")).as("the live source never rewound").isEqualTo(COUNT / 2);
        assertThat(recordsIn(downstream, "recount")).isEqualTo(COUNT);
    }

    /**
     * A source recovered onto the host of the tasks it feeds sends its decisions to nobody on its own channels (its
     * receivers share its host, and would be lost with it): those tasks must carry them on to their receivers on other
     * hosts from then on, as they do for an upstream task deployed beside them, though they were made before the
     * source came. Otherwise a later loss of that host loses the source's barrier positions with it, the source
     * regenerates its output with barriers elsewhere (its sequence numbers shift), and the tasks recovered with it
     * take an event twice or never.
     */
    @Test
    void aSourceRecoveredBesideTheTasksItFeedsHasItsDecisionsCarriedOnByThemAndSurvivesTheirHostsLoss() {
        ExecutionPlan plan = plan("""
                {"id": "beside", "operators": [
                  {"id": "src", "type": "generator", "parallelism": 1,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 20000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "src"}]},
                  {"id": "recount", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "count"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "recount"}]}
                ]}""");
        HostRuntime sources = startHost("host-a");
        HostRuntime counters = startHost("host-b");
        HostRuntime downstream = startHost("host-c");
        HostRuntime standby = startHost("host-d");
        TaskId src = TaskId.parse("beside/src#0");
        TaskPlacement placement = deploy(plan, task -> task.equals(src) ? sources
                : task.operator().value().equals("count") ? counters : downstream);
        checkpointUntilTwoCompleted(plan, sources, counters);

        loseAndRecover(plan, placement, sources, counters, false, Decisions.WITH_THE_SNAPSHOTS);
        Map<TaskId, HostId> besideCounters = new HashMap<>(placement.hosts());
        besideCounters.put(src, counters.id());
        long before = collector.latestComplete.get();
        checkpointUntilCompletedAfter(plan, before, counters);
        assertThat(downstream.decisionsOf(src, collector.byCheckpoint.get(collector.latestComplete.get()).get(src)
                .positions().decisionOffset())).as("the counters' receivers hold the recovered source's decisions")
                .isPresent();

        Map<TaskId, byte[]> decisions = loseAndRecover(plan, new TaskPlacement(besideCounters, endpoints()),
                counters, standby, false, Decisions.WITH_THE_SNAPSHOTS);

        assertThat(decisions).as("the source's decisions survived its host").containsKey(src);
        assertThat(sinkResults(plan, downstream)).as("every count update reached the recount exactly once")
                .isEqualTo(MultiHostKeyedCountTest.expectedCounts(COUNT, KEYS));
        assertThat(recordsIn(downstream, "recount")).isEqualTo(COUNT);
    }

    /**
     * Every way the decisions come, with nothing made ahead and with the tasks prepared whole: the lost counters' frames
     * forward their same-host source's decisions, through the logs the recovery must find in place.
     */
    static Stream<Arguments> decisionsAndWhatIsMadeAhead() {
        return Stream.of(Decisions.values()).flatMap(decisions -> Stream.of(Ahead.NOTHING, Ahead.TASKS)
                .map(made -> Arguments.of(decisions, made)));
    }

    private ExecutionPlan plan(String json) {
        ExecutionPlan plan = PlanExpander.expand(new TopologyValidator(registry).validate(
                new TopologySpecReader().read(json.formatted(COUNT, KEYS)))).withRecoveryMode(RecoveryMode.LOCAL);
        collector.plan = plan;
        collector.taskCount = plan.tasks().size();
        return plan;
    }

    private TaskPlacement deploy(ExecutionPlan plan, Function<TaskId, HostRuntime> hostOf) {
        Map<TaskId, HostId> hosts = new HashMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), hostOf.apply(task.id()).id()));
        TaskPlacement placement = new TaskPlacement(hosts, endpoints());
        all.stream().filter(host -> hosts.containsValue(host.id())).forEach(host -> host.deploy(plan, placement));
        return placement;
    }

    private Map<HostId, String> endpoints() {
        return all.stream().collect(Collectors.toMap(HostRuntime::id, HostRuntime::dataEndpoint));
    }

    /**
     * Once the source has emitted a tenth of its events, triggers a checkpoint every 200 ms until two completed and
     * every one triggered completed; returns once the tasks of {@code hostToLose} have taken in more input after
     * it (so that the host dies mid-stream with something to replay: frames linger up to 20 ms at the source, and a
     * host lost right at a completion may have taken in nothing since the barrier).
     */
    private void checkpointUntilTwoCompleted(ExecutionPlan plan, HostRuntime sourceHost, HostRuntime hostToLose) {
        await().atMost(Duration.ofSeconds(20)).until(() -> recordsIn(sourceHost, "src") > COUNT / 10);
        checkpointUntilCompletedAfter(plan, 0, hostToLose);
        assertThat(status(sourceHost, "src")).as("the host must die mid-stream").isEqualTo(TaskStatus.RUNNING);
    }

    /**
     * Triggers a checkpoint every 200 ms until two after {@code after} completed and every one triggered completed;
     * returns once the counting tasks of {@code hostToLose} have taken in more input after it.
     */
    private void checkpointUntilCompletedAfter(ExecutionPlan plan, long after, HostRuntime hostToLose) {
        ScheduledFuture<?> triggers = coordinator.scheduleAtFixedRate(() -> {
            long id = nextCheckpoint.incrementAndGet();
            live.forEach(host -> host.triggerCheckpoint(plan.topology(), id));
        }, 100, 200, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(20)).until(() -> collector.latestComplete.get() > after + 1);
        triggers.cancel(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> collector.latestComplete.get() == nextCheckpoint.get());
        long atLatest = recordsIn(hostToLose, "count");
        await().atMost(Duration.ofSeconds(20)).until(() -> recordsIn(hostToLose, "count") > atLatest + 3_000);
    }

    /**
     * What the router does when a host dies, in local mode: the tasks it ran restore on the standby host from
     * the latest completed checkpoint, with the decisions collected from the live hosts (the longest run of
     * each), and the live upstream tasks redirect their channels there.
     *
     * @param targetsFirst  redirect and hand the standby its catch-up targets before it creates the tasks (the
     *                      router sends them concurrently), else after
     * @param decisions     when the standby gets the decisions
     * @return the decisions found, by lost task
     */
    private Map<TaskId, byte[]> loseAndRecover(ExecutionPlan plan, TaskPlacement placement, HostRuntime lostHost,
                                               HostRuntime standby, boolean targetsFirst, Decisions decisions) {
        collector.recovering = true;
        long restoreFrom = collector.latestComplete.get();
        Map<TaskId, OperatorSnapshot> snapshots = collector.byCheckpoint.get(restoreFrom);
        Set<TaskId> lost = placement.hosts().entrySet().stream()
                .filter(entry -> entry.getValue().equals(lostHost.id())).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        live.remove(lostHost);
        Map<TaskId, HostId> moved = new HashMap<>(placement.hosts());
        lost.forEach(task -> moved.put(task, standby.id()));
        TaskPlacement recoveryPlacement = new TaskPlacement(moved, endpoints());
        long preparedBefore = standby.preparedTasksTaken();
        if (ahead != Ahead.NOTHING) {
            Map<TaskId, OperatorSnapshot> lostSnapshots = new HashMap<>(snapshots);
            lostSnapshots.keySet().retainAll(lost);
            assertThat(standby.restoreAhead(plan, lostSnapshots, restoreFrom)).containsExactlyInAnyOrderElementsOf(lost);
            if (ahead == Ahead.TASKS || ahead == Ahead.TASKS_FOR_ANOTHER_PLACEMENT) {
                Map<HostId, String> endpoints = new HashMap<>(endpoints());
                if (ahead == Ahead.TASKS_FOR_ANOTHER_PLACEMENT) {
                    endpoints.put(new HostId("host-elsewhere"), "tcp://127.0.0.1:1");
                }
                assertThat(standby.prepareRecovery(plan, new TaskPlacement(moved, endpoints), lostSnapshots,
                        restoreFrom)).containsExactlyInAnyOrderElementsOf(lost);
                assertThat(lost).allMatch(task -> standby.preparedAhead(task, restoreFrom));
            }
        }
        Map<TaskId, byte[]> knownAhead = new HashMap<>();
        if (decisions == Decisions.KNOWN_AHEAD_IN_PART) {
            // what the live hosts hold now, fetched ahead; the lost tasks go on deciding until they are lost
            knownAhead.putAll(heldOf(lost, snapshots));
            await("the lost tasks decide more after the decisions fetched ahead").atMost(Duration.ofSeconds(10))
                    .until(() -> heldOf(lost, snapshots).entrySet().stream().anyMatch(held ->
                            held.getValue().length > knownAhead.getOrDefault(held.getKey(), new byte[0]).length));
        }
        lostHost.close(); // its tasks' state and everything in flight to and from them is lost
        Map<TaskId, byte[]> logged = heldOf(lost, snapshots);
        if (decisions == Decisions.KNOWN_AHEAD_IN_PART) {
            assertThat(knownAhead).as("some decisions known ahead, fewer than were logged in the end")
                    .isNotEmpty().allSatisfy((task, known) ->
                            assertThat(known.length).isLessThanOrEqualTo(logged.get(task).length));
        }
        CompletableFuture<Map<TaskId, byte[]>> collected = decisions == Decisions.WITH_THE_SNAPSHOTS
                ? CompletableFuture.completedFuture(logged) : new CompletableFuture<>();
        List<TaskId> started = new ArrayList<>();
        Runnable recover = () -> started.addAll(standby.recoverInPlace(plan, recoveryPlacement, lost,
                new InPlaceRestore(restoreFrom, snapshots, new InPlaceRestore.Decisions(collected, knownAhead),
                        nextCheckpoint.get(), lost, System.nanoTime(), Map.of())));
        if (!targetsFirst) {
            recover.run();
        }
        Map<TaskId, String> newEndpoints = new HashMap<>();
        lost.forEach(task -> newEndpoints.put(task, standby.dataEndpoint()));
        Map<String, HostId> newHosts = Map.of(standby.dataEndpoint(), standby.id());
        live.stream().filter(host -> host != standby).forEach(host -> standby.catchUpTargets(plan.topology(),
                host.redirectChannelsTo(plan.topology(), newEndpoints, newHosts)));
        if (targetsFirst) {
            recover.run(); // the targets that came first are kept for the tasks it creates
        }
        assertThat(started).as("created and started upstream first: a recovered source gates what its receivers"
                + " replay").containsExactlyElementsOf(plan.tasks().stream().map(TaskSpec::id).filter(lost::contains)
                .toList());
        assertThat(lost).as("no operator restored ahead is left behind: the recovery took each")
                .noneMatch(task -> standby.restoredAhead(task, restoreFrom));
        assertThat(lost).as("no task prepared ahead is left behind").noneMatch(task -> standby.preparedAhead(task,
                restoreFrom));
        assertThat(standby.preparedTasksTaken() - preparedBefore).as("the tasks prepared ahead that the recovery took")
                .isEqualTo(ahead == Ahead.TASKS ? lost.size() : 0);
        if (decisions == Decisions.KNOWN_AHEAD_IN_PART) {
            AtomicLong replayedAhead = new AtomicLong(-1);
            await("the recovered tasks replay the decisions known ahead without waiting for the rest, and stop at"
                    + " their end").pollInterval(Duration.ofMillis(200)).atMost(Duration.ofSeconds(10))
                    .until(() -> {
                        long taken = recordsIn(standby);
                        return taken > 0 && taken == replayedAhead.getAndSet(taken);
                    });
            collected.complete(logged);
            await("then go on with the rest").atMost(Duration.ofSeconds(10))
                    .until(() -> recordsIn(standby) > replayedAhead.get());
        }
        if (decisions == Decisions.LATE) {
            await("input replayed to the recovered tasks waits for them").atMost(Duration.ofSeconds(10))
                    .until(() -> standby.taskReports().stream().mapToInt(TaskReport::queuedFrames).sum() > 0);
            await("no recovered task takes input before its decisions are in").during(Duration.ofMillis(200))
                    .atMost(Duration.ofSeconds(2))
                    .until(() -> standby.taskReports().stream().mapToLong(TaskReport::recordsIn).sum() == 0);
            assertThat(plan.tasks().stream().map(TaskSpec::id).filter(task -> !lost.contains(task))
                    .filter(task -> standby.earliestDecisionsOf(task).isPresent()).toList())
                    .as("the decisions the waiting frames carry were stored as they arrived, though no task took"
                            + " them in").isNotEmpty();
            collected.complete(logged);
        }
        collector.recovering = false;
        return logged;
    }

    /** When a recovering host has the lost tasks' decisions. */
    enum Decisions {
        /** All of them, fetched with the snapshots. */
        WITH_THE_SNAPSHOTS,
        /** All of them, only once the recovered tasks run with input waiting. */
        LATE,
        /** Those the live hosts held a while before the failure at once, all of them once the tasks ran. */
        KNOWN_AHEAD_IN_PART
    }

    /** The longest run of each task's decisions from its snapshot's offset that any live host holds. */
    private Map<TaskId, byte[]> heldOf(Set<TaskId> tasks, Map<TaskId, OperatorSnapshot> snapshots) {
        Map<TaskId, byte[]> decisions = new HashMap<>();
        for (TaskId task : tasks) {
            long from = snapshots.get(task).positions().decisionOffset();
            live.stream().map(host -> host.decisionsOf(task, from)).flatMap(Optional::stream)
                    .max(Comparator.comparingInt(bytes -> bytes.length))
                    .ifPresent(longest -> decisions.put(task, longest));
        }
        return decisions;
    }

    private static Map<String, Object> sinkResults(ExecutionPlan plan, HostRuntime host) {
        await().atMost(Duration.ofSeconds(60)).until(() -> status(host, "sink") == TaskStatus.FINISHED);
        Map<String, Object> results = new TreeMap<>();
        for (TaskSpec sink : plan.tasksOf(OperatorId.of("sink"))) {
            results.putAll(host.queryAll(sink.id(), "latest", Integer.MAX_VALUE).join());
        }
        return results;
    }

    private static Map<TaskId, StreamTask> tasksOn(List<HostRuntime> hosts) {
        Map<TaskId, StreamTask> tasks = new HashMap<>();
        for (HostRuntime host : hosts) {
            for (TaskReport report : host.taskReports()) {
                TaskId id = TaskId.parse(report.task());
                tasks.put(id, host.task(id).orElseThrow());
            }
        }
        return tasks;
    }

    private static TaskStatus status(HostRuntime host, String operator) {
        return host.taskReports().stream().filter(report -> report.task().contains("/" + operator + "#"))
                .map(TaskReport::status).reduce((a, b) -> a == b ? a : TaskStatus.RUNNING).orElseThrow();
    }

    private static long recordsIn(HostRuntime host) {
        return host.taskReports().stream().mapToLong(TaskReport::recordsIn).sum();
    }

    private static long recordsIn(HostRuntime host, String operator) {
        return host.taskReports().stream().filter(report -> report.task().contains("/" + operator + "#"))
                .mapToLong(TaskReport::recordsIn).sum();
    }
}
