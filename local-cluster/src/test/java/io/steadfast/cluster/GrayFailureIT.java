package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.cluster.HostFaults.Fault;
import io.steadfast.cluster.HostFaults.Kind;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exactly-once under gray failures, end to end with real processes: a checkpoint-service, a router
 * keeping two warm standby hosts, and five hosts run a paced job of about 90 s while hosts are frozen (SIGSTOP, past
 * the router's 800 ms heartbeat timeout, then SIGCONT) and killed (SIGKILL). A frozen host is the harder fault: it
 * is declared dead and its tasks recovered elsewhere, but it comes back with its old tasks and its sockets, so
 * two copies of a task may exist for a while.
 *
 * <p>The job has an order-sensitive branch, so that mixed copies of a task show in its results: a generator of
 * parallelism 1 feeds a {@code map}, then a {@code keyed-digest} by key (every key's values take one path, so their
 * order is deterministic; a value taken in twice, lost or reordered changes the key's digest). Two generators with
 * different key counts feed a two-input {@code keyed-count}; one of them also feeds a {@code window-sum}, whose window
 * sums go into a second {@code keyed-digest}. Every branch ends in a {@code latest-value-sink}.
 *
 * <p>Each test must leave the topology FINISHED, every recovery RECOVERED or ABANDONED as SUPERSEDED by a later one
 * that RECOVERED, and every key of every sink equal to a failure-free reference run of the same job (run once, before
 * the tests, unpaced: pacing never changes what the generators emit). The outcome is checked as a whole (soft
 * assertions), so a failure says at once whether the job finished, which recoveries are stuck and how many keys of
 * each sink are wrong. The faults are drawn from a seed, printed (set {@code -Dsteadfast.gray.seed} to draw the same
 * schedule again; which hosts are hit also depends on where the router placed tasks). Progress is printed as
 * {@code [e2e]} lines, also kept with the processes' logs in {@code local-cluster/target/e2e-run/gray-<timestamp>/}.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GrayFailureIT {

    private static final int HOSTS = 3;
    /** Warm standby hosts the router keeps: a fresh JVM needs 10-40 s to become LIVE on a loaded 2-core machine. */
    private static final int STANDBY_HOSTS = 2;
    private static final int RATE_PER_SOURCE = 4_000;
    /** How long the paced generators emit for. */
    private static final Duration RUN = Duration.ofSeconds(90);
    private static final long EVENTS_PER_SOURCE = RATE_PER_SOURCE * RUN.toSeconds();
    private static final int SEQ_KEYS = 200;
    private static final int LEFT_KEYS = 500;
    private static final int RIGHT_KEYS = 300;
    private static final OperatorId DIGESTS = new OperatorId("digests");
    private static final OperatorId COUNTS = new OperatorId("counts");
    private static final OperatorId WINDOW_DIGESTS = new OperatorId("window-digests");
    private static final List<OperatorId> SINKS = List.of(DIGESTS, COUNTS, WINDOW_DIGESTS);
    /**
     * The shortest freeze: nearly twice the local cluster's heartbeat timeout (800 ms), so that the router declares
     * the frozen host DEAD and recovers its tasks elsewhere while it is frozen.
     */
    private static final Duration SHORTEST_FREEZE = Duration.ofMillis(1_500);
    /** How long after its deployment (beyond {@link #RUN}) a job may take to finish, recoveries included. */
    private static final Duration FINISH_MARGIN = Duration.ofSeconds(150);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final String SEED_PROPERTY = "steadfast.gray.seed";

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("gray", HOSTS).andStandbyHosts(STANDBY_HOSTS);

    private static ClusterProcesses processes;
    private static RouterClient router;
    private static TopologyOutcomes outcomes;
    /** Each sink's values in a failure-free run of the job. */
    private static Map<OperatorId, Map<String, Long>> reference;

    /** A deployed job and the faults that hit its hosts. */
    private record Run(TopologyId id, Instant deployedAt, HostFaults faults) {
    }

    @BeforeAll
    static void runTheReference() {
        processes = CLUSTER.processes();
        router = CLUSTER.router();
        outcomes = CLUSTER.outcomes();
        log("reference run: " + EVENTS_PER_SOURCE + " events per generator, unpaced, no faults");
        reference = outcomes.referenceResults(job("gray-reference", 0), SINKS, Duration.ofSeconds(300));
        assertThat(reference.get(COUNTS)).as("the reference run's counts: both generators' key distributions")
                .containsExactlyInAnyOrderEntriesOf(expectedCounts());
        assertThat(reference.get(DIGESTS)).as("a digest per key of the sequence").hasSize(SEQ_KEYS);
        assertThat(reference.get(WINDOW_DIGESTS)).as("a digest of window sums per key").hasSize(RIGHT_KEYS);
        log("reference run done: " + SINKS.stream().map(sink -> sink + " " + reference.get(sink).size() + " keys")
                .collect(Collectors.joining(", ")));
    }

    /**
     * Earlier tests killed hosts: fresh ones (new ids) until five run, all LIVE, so that two can be standbys. A host
     * that is not LIVE again within 30 s of the previous test is killed and replaced, so that one test's wedge does
     * not fail the next.
     */
    @BeforeEach
    void fiveLiveHosts() {
        for (HostId host : processes.unpausedHostIds()) {
            try {
                await("%s LIVE".formatted(host)).atMost(Duration.ofSeconds(30)).pollInterval(POLL)
                        .ignoreExceptionsInstanceOf(RouterRequestException.class)
                        .until(() -> router.liveHostIds().contains(host));
            } catch (ConditionTimeoutException e) {
                log(host + " is not LIVE 30 s after the previous test: killing it, a fresh host takes its place");
                processes.killHost(host);
            }
        }
        while (processes.unpausedHostIds().size() < HOSTS + STANDBY_HOSTS) {
            HostId fresh = processes.nextHostId();
            log("started " + fresh + " pid " + processes.startHost(fresh).pid());
        }
        CLUSTER.awaitHostsLive(processes.unpausedHostIds());
    }

    /**
     * (a) Five freezes of hosts running tasks, over about 40 s, each 1.5-4 s long (past the detection timeout), at
     * random times: the platform must neither wedge nor let the frozen host's old tasks change any result. The five
     * durations fall one in each fifth of that range, in random order, so that short freezes (the host comes back
     * while its tasks are still being recovered) and long ones are both among them; a freeze starts 0.3-9 s after the
     * previous one ended, so that some hit while the previous recovery or the previous host's return is in progress.
     */
    @Test
    @Order(1)
    void hostsFrozenPastTheDetectionTimeoutAndResumedNeitherWedgeTheJobNorChangeItsResults() {
        Random random = seeded("freezes");
        List<Integer> fifths = new ArrayList<>(List.of(0, 1, 2, 3, 4));
        Collections.shuffle(fifths, random);
        List<Fault> plan = new ArrayList<>();
        Duration at = Duration.ofMillis(random.nextLong(3_000));
        for (int i = 0; i < fifths.size(); i++) {
            Duration frozenFor = SHORTEST_FREEZE.plusMillis((fifths.get(i) * 500L) + random.nextLong(500));
            plan.add(new Fault(i + 1, at, Kind.FREEZE, frozenFor, random.nextDouble(), false));
            at = at.plus(frozenFor).plusMillis(300 + random.nextLong(8_700));
        }
        Run run = deploy("gray-freezes");

        run.faults().inject(plan);

        verify(run, softly -> { });
    }

    /**
     * (b) Ten faults over more than a minute, five SIGKILLs and five freezes in random order, at random hosts running
     * tasks; every third hits a host that took over tasks from an earlier fault if one runs tasks. A fresh host is
     * started after each kill (the next standby once LIVE). Such runs move tasks onto hosts where tasks they feed run
     * already, and then lose those hosts: the tasks beside them must have carried their decisions on to other hosts,
     * or the recovered copies regenerate different sequence numbers and {@code digests} takes a record twice (see
     * {@code LocalRecoveryTest}, a source recovered beside the tasks it feeds).
     */
    @Test
    @Order(2)
    void killsAndFreezesOfRandomHostsOverAMinuteLeaveEveryKeyExact() {
        Random random = seeded("mixed");
        List<Kind> kinds = new ArrayList<>();
        IntStream.range(0, 5).forEach(i -> kinds.addAll(List.of(Kind.KILL, Kind.FREEZE)));
        Collections.shuffle(kinds, random);
        // 7 s apart plus up to 2.5 s each: the last fault at least 60.5 s after the first, and at least 1 s after the
        // previous freeze (at most 3.5 s) ended
        List<Fault> plan = IntStream.range(0, kinds.size()).mapToObj(i -> new Fault(i + 1,
                Duration.ofMillis(7_000L * i + random.nextLong(2_500)), kinds.get(i),
                SHORTEST_FREEZE.plusMillis(random.nextLong(2_000)), random.nextDouble(), i % 3 == 2)).toList();
        Run run = deploy("gray-mixed");

        run.faults().inject(plan);

        verify(run, softly -> softly.assertThat(run.faults().hitAfterTakingOver()).as("hosts hit while they ran tasks"
                + " taken over from an earlier fault (of %s hit)", run.faults().hit()).isNotEmpty());
    }

    /**
     * (c) A host frozen while it is the target of a recovery, twice: first a standby frozen just before a host
     * running tasks is killed, so that the router picks it while it is frozen but not yet declared dead (the kill is
     * detected within 300-400 ms through the dropped connections, the freeze only after 800 ms); then the host that
     * took over a killed host's tasks, frozen as soon as the router's topology view places them there (the recovery
     * record names its targets only once they have answered, which a frozen host never does). Each stays frozen well
     * past the detection timeout, then runs again.
     */
    @Test
    @Order(3)
    void aHostFrozenWhileItIsTheTargetOfARecoveryLeavesEveryKeyExact() {
        Random random = seeded("target");
        Run run = deploy("gray-target");
        List<Boolean> frozenWhileTarget = new ArrayList<>();

        freezeAStandbyThenKillAHostRunningTasks(run, random).ifPresent(frozenWhileTarget::add);
        if (run.faults().problems().isEmpty()) {
            run.faults().pauseReporting(Duration.ofSeconds(5));
            awaitAStandby(run);
            killAHostThenFreezeTheHostTakingOverItsTasks(run, random).ifPresent(frozenWhileTarget::add);
        }

        verify(run, softly -> softly.assertThat(frozenWhileTarget)
                .as("a frozen host was a recovery target while frozen (round 1: picked while frozen; round 2: frozen"
                        + " once picked)").contains(true));
    }

    /** Round 1 of (c); whether the router placed lost tasks on the frozen standby, empty if it could not be done. */
    private static Optional<Boolean> freezeAStandbyThenKillAHostRunningTasks(Run run, Random random) {
        HostFaults faults = run.faults();
        Duration frozenFor = SHORTEST_FREEZE.plusMillis(1_000 + random.nextLong(1_500));
        List<HostId> standbys = new ArrayList<>();
        Optional<List<HostId>> hosts = faults.awaitHostsToHit("round 1", () -> {
            standbys.clear();
            standbys.addAll(faults.standbys());
            return !standbys.isEmpty();
        });
        if (hosts.isEmpty()) {
            return Optional.empty();
        }
        // the host with the most tasks: the router spreads lost tasks round robin over its standbys, so that each
        // standby is likely to be given one
        TopologyDetail view = router.topology(run.id());
        HostId victim = hosts.get().stream().max(Comparator.comparingInt(host -> TaskHosts.tasksOn(view, host).size()))
                .orElseThrow();
        HostId standby = standbys.get(random.nextInt(standbys.size()));
        log("round 1: freezing standby " + standby + " (SIGSTOP) for " + seconds(frozenFor) + " (standbys: " + standbys
                + "), then killing a host running tasks");
        boolean picked = false;
        Instant frozenAt = Instant.now();
        processes.pauseHost(standby);
        try {
            faults.kill("round 1", victim);
            while (Instant.now().isBefore(frozenAt.plus(frozenFor))) {
                List<TaskId> placed = TaskHosts.tasksOn(router.topology(run.id()), standby);
                if (!picked && !placed.isEmpty()) {
                    picked = true;
                    log("round 1: the router placed " + placed + " on the frozen " + standby + " "
                            + Duration.between(frozenAt, Instant.now()).toMillis() + " ms after it froze");
                }
                faults.pauseReporting(POLL);
            }
        } finally {
            processes.resumeHost(standby);
        }
        log("round 1: " + standby + " runs again (SIGCONT) after " + seconds(Duration.between(frozenAt, Instant.now()))
                + (picked ? "" : "; the router placed no task on it while it was frozen"));
        faults.recordHit(standby, false);
        return Optional.of(picked);
    }

    /**
     * Waits up to a minute for a LIVE standby again (the fresh host started after round 1's kill, or a resumed one),
     * so that round 2 recovers onto one as round 1 did; goes on without one after that (the router then recovers onto
     * the least loaded live hosts).
     */
    private static void awaitAStandby(Run run) {
        try {
            await("a LIVE standby").atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                    .ignoreExceptionsInstanceOf(RouterRequestException.class)
                    .until(() -> {
                        outcomes.reportRecoveryChanges(run.id());
                        return !run.faults().standbys().isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            log("no LIVE standby within 60 s: round 2 goes on without one");
        }
    }

    /** Round 2 of (c); whether a host taking over the killed host's tasks was frozen, empty if nothing was killed. */
    private static Optional<Boolean> killAHostThenFreezeTheHostTakingOverItsTasks(Run run, Random random) {
        HostFaults faults = run.faults();
        Duration frozenFor = SHORTEST_FREEZE.plusMillis(1_000 + random.nextLong(1_500));
        Optional<List<HostId>> hosts = faults.awaitHostsToHit("round 2", () -> true);
        if (hosts.isEmpty()) {
            return Optional.empty();
        }
        HostId victim = hosts.get().get(random.nextInt(hosts.get().size()));
        List<TaskId> lost = TaskHosts.tasksOn(router.topology(run.id()), victim);
        Instant killedAt = Instant.now();
        faults.kill("round 2 (then freezing the first host the router moves one of its tasks to)", victim);
        Optional<HostId> target = Optional.empty();
        while (target.isEmpty() && Duration.between(killedAt, Instant.now()).compareTo(Duration.ofSeconds(20)) < 0) {
            target = router.topology(run.id()).tasks().stream()
                    .filter(task -> lost.contains(task.task()) && !task.host().equals(victim)
                            && processes.unpausedHostIds().contains(task.host()))
                    .map(TaskState::host).findFirst();
            if (target.isEmpty()) {
                faults.pauseReporting(Duration.ofMillis(20));
            }
        }
        if (target.isEmpty()) {
            faults.problem("round 2: the router moved none of " + lost + " off the killed " + victim + " within 20 s");
            return Optional.of(false);
        }
        log("round 2: " + target.get() + " took over " + TaskHosts.tasksOn(router.topology(run.id()), target.get())
                + " "
                + Duration.between(killedAt, Instant.now()).toMillis() + " ms after the kill");
        faults.freeze("round 2", target.get(), frozenFor);
        return Optional.of(true);
    }

    private static Random seeded(String test) {
        long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        log(test + ": seed " + seed + " (draw the same faults with -D" + SEED_PROPERTY + "=" + seed + ")");
        return new Random(seed);
    }

    /** Deploys the paced job and waits for its first completed checkpoint, so that recoveries have one to restore. */
    private static Run deploy(String name) {
        TopologySubmitted deployment = router.deploy(job(name, RATE_PER_SOURCE));
        Instant deployedAt = Instant.now();
        Set<HostId> initial = deployment.tasks().stream().map(TopologySubmitted.PlacedTask::host)
                .collect(Collectors.toSet());
        HostFaults faults = new HostFaults(processes, router, outcomes, CLUSTER::log, deployment.id(),
                Set.copyOf(SINKS), initial);
        log("deployed " + deployment.id() + ": " + deployment.tasks().size() + " tasks on " + new TreeSet<>(initial)
                + "; standbys " + faults.standbys());
        CLUSTER.awaitCompletedCheckpoints(deployment.id(), 1);
        return new Run(deployment.id(), deployedAt, faults);
    }

    /**
     * Waits for the job to finish (not failing fast: a FAILED recovery is retried), then checks the whole outcome at
     * once: faults injected as planned, every task FINISHED, every recovery settled, every key of every sink equal to
     * the reference run's, and {@code specific} checks of the test. Deletes the job in any case.
     */
    private static void verify(Run run, Consumer<SoftAssertions> specific) {
        TopologyId id = run.id();
        Instant deadline = run.deployedAt().plus(RUN).plus(FINISH_MARGIN);
        boolean finished;
        try {
            await("every task of %s FINISHED".formatted(id))
                    .atMost(max(Duration.between(Instant.now(), deadline), Duration.ofSeconds(10)))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptionsInstanceOf(RouterRequestException.class)
                    .until(() -> {
                        outcomes.reportRecoveryChanges(id);
                        return router.topology(id).allTasksFinished();
                    });
            finished = true;
            log(id + " FINISHED " + seconds(Duration.between(run.deployedAt(), Instant.now())) + " after deployment");
        } catch (ConditionTimeoutException e) {
            finished = false;
        }
        try {
            TopologyDetail view = router.topology(id);
            List<String> unfinished = view.tasks().stream().filter(task -> !task.isFinished())
                    .map(task -> task.task() + " " + task.status() + " on " + task.host()).toList();
            List<RecoveryView> recoveries = router.recoveries(id).stream()
                    .sorted(Comparator.comparingLong(RecoveryView::id)).toList();
            log(id + ": " + recoveries.size() + " recoveries: " + recoveries.stream()
                    .collect(Collectors.groupingBy(r -> r.outcome().status()
                                    + (r.outcome().failureReason() == null ? "" : "/" + r.outcome().failureReason()),
                            TreeMap::new, Collectors.counting())));
            recoveries.forEach(r -> log("  " + RecoveryLine.format(r) + (r.local() == null ? ""
                    : "; placed on " + new TreeSet<>(r.local().placedOn().values()))));
            Map<OperatorId, SinkDifferences> differences = new LinkedHashMap<>();
            SINKS.forEach(sink -> differences.put(sink,
                    SinkDifferences.between(sink, outcomes.results(id, sink), reference.get(sink))));
            differences.values().forEach(d -> log("  " + d.describe()));
            if (!differences.get(COUNTS).differing().isEmpty()) {
                log("  counts off by (count - reference: keys): " + differences.get(COUNTS).offsets());
            }

            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(run.faults().problems()).as("faults injected as planned").isEmpty();
            softly.assertThat(finished).as("every task of %s FINISHED within %s s of its deployment; not finished: %s",
                    id, RUN.plus(FINISH_MARGIN).toSeconds(), unfinished).isTrue();
            softly.assertThat(TopologyOutcomes.unsettledRecoveries(recoveries))
                    .as("recoveries neither RECOVERED nor SUPERSEDED by a later one that RECOVERED").isEmpty();
            differences.values().forEach(d -> softly.assertThat(d.isEmpty())
                    .as("every key of %s equals the reference run's; %s", d.sink(), d.describe()).isTrue());
            specific.accept(softly);
            softly.assertAll();
        } finally {
            try {
                router.delete(id);
            } catch (RouterRequestException e) {
                log("could not delete " + id + ": " + e.getMessage());
            }
        }
    }

    /** Each count is the key's events from both generators. */
    private static Map<String, Long> expectedCounts() {
        Map<String, Long> expected = new TreeMap<>(TestTopologies.expectedCounts((int) EVENTS_PER_SOURCE, LEFT_KEYS));
        TestTopologies.expectedCounts((int) EVENTS_PER_SOURCE, RIGHT_KEYS).forEach((key, n) -> expected.merge(key, n, Long::sum));
        return expected;
    }

    /**
     * The job: {@code seq} (parallelism 1) → {@code shift} (map: double) → {@code digest} (keyed-digest) →
     * {@code digests}; {@code left} and {@code right} (500 and 300 keys) → {@code count} (keyed-count of both) →
     * {@code counts}; {@code right} → {@code windows} (window-sum of 5 s) → {@code window-digest} (keyed-digest) →
     * {@code window-digests}. Every edge by key; the default checkpoint interval (1 s). Paced from now at
     * {@code ratePerSource} per generator, or unpaced if 0.
     */
    private static String job(String id, int ratePerSource) {
        String paced = TestTopologies.pacedFromNow(ratePerSource);
        return """
                {"id": "%1$s",
                 "operators": [
                   {"id": "seq", "type": "generator", "parallelism": 1,
                    "config": {"count": %2$d, "keys": %3$d, "keyPrefix": "seq-"%6$s}},
                   {"id": "shift", "type": "map", "parallelism": 2, "config": {"function": "double"},
                    "inputs": [{"from": "seq", "partitioning": "key"}]},
                   {"id": "digest", "type": "keyed-digest", "parallelism": 2,
                    "inputs": [{"from": "shift", "partitioning": "key"}]},
                   {"id": "digests", "type": "latest-value-sink", "parallelism": 1,
                    "inputs": [{"from": "digest", "partitioning": "key"}]},
                   {"id": "left", "type": "generator", "parallelism": 1,
                    "config": {"count": %2$d, "keys": %4$d%6$s}},
                   {"id": "right", "type": "generator", "parallelism": 1,
                    "config": {"count": %2$d, "keys": %5$d%6$s}},
                   {"id": "count", "type": "keyed-count", "parallelism": 2,
                    "inputs": [{"from": "left", "partitioning": "key"}, {"from": "right", "partitioning": "key"}]},
                   {"id": "counts", "type": "latest-value-sink", "parallelism": 1,
                    "inputs": [{"from": "count", "partitioning": "key"}]},
                   {"id": "windows", "type": "window-sum", "parallelism": 2, "config": {"windowMillis": 5000},
                    "inputs": [{"from": "right", "partitioning": "key"}]},
                   {"id": "window-digest", "type": "keyed-digest", "parallelism": 1,
                    "inputs": [{"from": "windows", "partitioning": "key"}]},
                   {"id": "window-digests", "type": "latest-value-sink", "parallelism": 1,
                    "inputs": [{"from": "window-digest", "partitioning": "key"}]}
                 ]}
                """.formatted(id, EVENTS_PER_SOURCE, SEQ_KEYS, LEFT_KEYS, RIGHT_KEYS, paced);
    }

    private static String seconds(Duration duration) {
        return HostFaults.seconds(duration);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static void log(String line) {
        CLUSTER.log(line);
    }
}
