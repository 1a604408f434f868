package io.steadfast.benchmarks;

import io.steadfast.cluster.ClusterStartup;
import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Recovery time after one host process is killed with SIGKILL or frozen with SIGSTOP, LOCAL against GLOBAL mode, at
 * several job sizes: a checkpoint-service, a router, the hosts and one warm standby host run as real processes (the
 * service jars must be built). For each size, mode and run, a keyed word count (source : count : sink = 1 : 2 : 1) runs
 * until {@value #CHECKPOINTS_BEFORE_THE_KILL} checkpoints completed (one per second), a host running a count task is
 * killed or frozen at a set phase of the checkpoint interval (see {@link #faultPhase}), and the figures are taken from
 * the moment of the fault: detection (until the router declared the host dead), restore (until the lost tasks, or all
 * tasks in GLOBAL mode, were running again from the checkpoint), catch-up (until the recovered tasks had caught up;
 * GLOBAL: until the sinks were back where they were) and total (fault until caught up). Prints the medians.
 *
 * <p>The fault ({@link HostFault}): {@code kill} (SIGKILL, the default; a fresh host replaces the victim for the next
 * run) or {@code freeze} (SIGSTOP for {@code 3s}, or {@code freeze:<length>}, then SIGCONT). A frozen host is declared
 * dead only at the router's heartbeat timeout (its kernel still accepts the health probe's connection); when it runs
 * again it finds its lease lapsed, stops its tasks and registers under a new session. For a freeze each run also
 * measures when the victim was LIVE again (from the freeze, and from the SIGCONT) and lists any task it ran before
 * the freeze that it still reported after it rejoined ({@link RejoinWatch}); a victim not LIVE again in time is killed,
 * and replaced for the next run as after a kill.
 *
 * <p>The job's input: by default {@value #DEFAULT_JOB_RATE} events/s for the whole job at every size, shared by its
 * sources, so that the job grows in tasks and channels while the machine stays below saturation (on two cores, a rate
 * per source of 10,000 events/s kept the CPUs fully busy at 32 tasks before any failure, and the 64-task job could not
 * run; an input that grows with the job needs machines that grow with it). {@code 10000/source} gives each source
 * task that rate instead.
 *
 * <p>The hosts: by default three at every size ({@value #DEFAULT_HOSTS}), so the killed host runs a third of the job
 * (1-2 tasks at 4 tasks, 10-11 at 32); {@code 4/host} starts one host per four tasks, at least
 * {@value HostLayout#MIN_HOSTS}, so that a killed host loses about as many tasks at every size, as a machine with a
 * fixed number of task slots does in a cluster that grows with its jobs. On two cores that layout is slower at every
 * size above 8 tasks: every host process costs CPU of its own (a 32-task job on 8 hosts kept the machine 81 % busy
 * before the kill, on 3 hosts 42 %; docs/performance.md).
 *
 * <p>Arguments: {@code [sizes, default 4,8,16,32,64] [runs per size and mode, default 5] [modes, default
 * LOCAL,GLOBAL] [input, default 20000/job] [hosts, default 3] [standby hosts, default 1] [fault, default kill: kill,
 * freeze or freeze:<length> such as freeze:5s]}. The system property {@value #ROUTER_ARGS_PROPERTY} adds router
 * arguments, e.g. {@code -Drecovery.router-args=--steadfast.router.suspicion.refused-is-dead=true}.
 */
public final class RecoveryBenchmark {

    static final String DEFAULT_HOSTS = "3";
    static final String ROUTER_ARGS_PROPERTY = "recovery.router-args";
    static final int DEFAULT_STANDBY_HOSTS = 1;
    static final long DEFAULT_JOB_RATE = 20_000;
    /**
     * Runs per size and mode. Detection alone varies by 100-300 ms between runs (where the kill falls in the
     * heartbeat period), so the median of 3 moved a size's total by up to 100 ms from one benchmark to the next.
     */
    static final int DEFAULT_RUNS = 5;
    private static final long CHECKPOINT_INTERVAL_MS = 1_000;
    /**
     * The job runs until this many checkpoints completed (about as many seconds) before a host is killed: in its
     * first seconds a freshly deployed job is still being started and compiled on every host, and a recovery
     * measured then measures that start-up as well.
     */
    static final int CHECKPOINTS_BEFORE_THE_KILL = 5;
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    /**
     * How often the benchmark asks the router how a job or a recovery stands. The figures are the router's own
     * timestamps, so a slower poll loses no precision; but every poll costs the router (and, for checkpoints, the
     * checkpoint-service and its store) and this JVM CPU, which a recovery on saturated cores would share (the cost
     * of a faster poll is in docs/performance.md, "Constants and the figures behind them").
     */
    static final Duration POLL = Duration.ofMillis(250);
    /** How often it asks for the next checkpoint trigger, which times the kill (the first run's, 100 ms after it). */
    static final Duration TRIGGER_POLL = Duration.ofMillis(50);
    /** The hosts' heartbeat interval: {@code steadfast.host.heartbeat-interval}, which the hosts started here keep. */
    static final Duration HEARTBEAT_INTERVAL = Duration.ofMillis(200);
    /** How long before the fault's window opens the victim's latest heartbeat is read from the router. */
    private static final Duration HEARTBEAT_READ_AHEAD = Duration.ofMillis(30);
    /**
     * {@code steadfast.router.heartbeat-timeout}'s default: a host frozen for less is not declared dead by it (only
     * by rejoining, if frozen for longer than its lease, three quarters of it).
     */
    static final Duration ROUTER_HEARTBEAT_TIMEOUT = Duration.ofMillis(800);
    /**
     * How long after its resume a frozen host gets to be LIVE again (it fences itself within tens of milliseconds, but
     * the router admits its new session only once it has handled the old one's failure); past it the host is killed.
     */
    static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(30);

    private final ClusterProcesses processes;
    private final ClusterStartup startup;
    private final RouterClient router;
    private final InputRate input;
    private final HostLayout layout;
    private final int standbyHosts;
    private final HostFault fault;

    private RecoveryBenchmark(ClusterProcesses processes, ClusterStartup startup, RouterClient router,
                              InputRate input, HostLayout layout, int standbyHosts, HostFault fault) {
        this.processes = processes;
        this.startup = startup;
        this.router = router;
        this.input = input;
        this.layout = layout;
        this.standbyHosts = standbyHosts;
        this.fault = fault;
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "4,8,16,32,64").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_RUNS;
        List<String> modes = List.of((args.length > 2 ? args[2] : "LOCAL,GLOBAL").toUpperCase(Locale.ROOT).split(","));
        InputRate input = InputRate.parse(args.length > 3 ? args[3] : DEFAULT_JOB_RATE + "/job");
        HostLayout layout = HostLayout.parse(args.length > 4 ? args[4] : DEFAULT_HOSTS);
        int standbyHosts = args.length > 5 ? Integer.parseInt(args[5]) : DEFAULT_STANDBY_HOSTS;
        if (standbyHosts < 1) {
            throw new IllegalArgumentException("standby hosts: " + standbyHosts + "; give at least 1 (a LOCAL recovery"
                    + " without one runs the lost tasks on the live hosts)");
        }
        HostFault fault = HostFault.parse(args.length > 6 ? args[6] : "kill");
        if (fault instanceof HostFault.Freeze freeze && freeze.length().compareTo(ROUTER_HEARTBEAT_TIMEOUT) < 0) {
            System.out.println("Warning: a freeze of " + freeze.length().toMillis() + " ms is shorter than the"
                    + " router's default heartbeat timeout (" + ROUTER_HEARTBEAT_TIMEOUT.toMillis() + " ms): the host"
                    + " is declared dead only if it rejoins (a freeze longer than its lease), and a run without a"
                    + " recovery times out");
        }
        Path runDir = Files.createTempDirectory("steadfast-recovery-bench");
        System.out.println("Recovery benchmark (" + String.join(" vs ", modes) + ", " + runs + " runs per size, input "
                + input + ", " + layout + " and " + standbyHosts + " standby, fault: " + fault.describe()
                + "); process logs in " + runDir);
        try (ClusterProcesses processes = new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir)) {
            // stopped with Ctrl-C or a TERM signal, the benchmark must not leave its cluster running
            Runtime.getRuntime().addShutdownHook(new Thread(processes::close, "recovery-benchmark-shutdown"));
            ClusterStartup startup = new ClusterStartup(processes, TIMEOUT, line -> System.out.println("  " + line));
            startup.startCheckpointServiceOnFreePort();
            List<String> routerArgs = new ArrayList<>(List.of("--steadfast.router.standby-hosts=" + standbyHosts));
            String extra = System.getProperty(ROUTER_ARGS_PROPERTY, "").trim();
            if (!extra.isEmpty()) {
                routerArgs.addAll(List.of(extra.split("\\s+")));
                System.out.println("Router started with " + routerArgs);
            }
            RouterClient router = startup.startRouterOnFreePort(routerArgs);
            int hosts = layout.hostsFor(sizes[0]);
            startup.startHosts(router, hosts);
            startup.startStandbyHosts(router, hosts, standbyHosts);
            new RecoveryBenchmark(processes, startup, router, input, layout, standbyHosts, fault)
                    .run(sizes, runs, modes);
        }
    }

    private void run(int[] sizes, int runs, List<String> modes) throws Exception {
        RecoveryReport report = new RecoveryReport(sizes, modes, runs, fault);
        for (int tasks : sizes) {
            for (int run = 1; run <= runs; run++) {
                for (String mode : modes) {
                    try {
                        RecoverySample sample = measure(tasks, mode, run, faultPhase(run, runs),
                                heartbeatPhase(run, runs));
                        System.out.printf(Locale.ROOT, "%d tasks, %s, run %d: %s%n", tasks, mode, run, sample);
                        report.add(tasks, mode, sample);
                    } catch (IllegalStateException e) {
                        System.out.printf(Locale.ROOT, "%d tasks, %s, run %d: not measured: %s%n", tasks, mode, run,
                                e.getMessage());
                    }
                }
            }
        }
        report.print();
    }

    /**
     * How long after a checkpoint trigger run {@code run} of {@code runs} kills or freezes the host (the same phases
     * for either fault; the text below says kill): the middles of {@code runs}
     * equal parts of the interval (100, 300, 500, 700 and 900 ms for 5 runs of a 1 s interval), the same at every size
     * and mode. A failure comes at any phase of the checkpoint cycle, and the phase decides what a recovery costs: a
     * kill while the checkpoint just triggered is still being taken restores from the one before, and every task
     * replays up to two intervals of input instead of up to one; a fault always just after a trigger favours victims
     * with few tasks, which have acked it sooner (docs/performance.md).
     */
    static Duration faultPhase(int run, int runs) {
        return Duration.ofMillis(CHECKPOINT_INTERVAL_MS * (2L * run - 1) / (2L * runs));
    }

    /**
     * How long after the victim's latest heartbeat run {@code run} of {@code runs} kills or freezes it: equal parts of
     * the hosts' heartbeat interval (20, 60, 100, 140 and 180 ms for 5 runs), the same at every size and mode, the
     * fault falling within half an interval of its {@link #faultPhase}. A SIGKILLed host is declared dead when it has
     * been silent for {@code steadfast.router.suspicion.min-silence} (300 ms) after its last heartbeat, so the
     * detection is that silence less the heartbeat phase of the kill, whatever the job's size; left to chance, the
     * phase follows the victim's heartbeat schedule, which drifts with the job's size (docs/performance.md). A frozen
     * host is declared dead only at the router's
     * heartbeat timeout (800 ms) after its last heartbeat, its kernel still accepting the probe's connection: the
     * detection of a freeze is that timeout less the heartbeat phase.
     */
    static Duration heartbeatPhase(int run, int runs) {
        return HEARTBEAT_INTERVAL.multipliedBy(2L * run - 1).dividedBy(2L * runs);
    }

    /** Deploys a job of {@code tasks} tasks in {@code mode}, kills or freezes a host running a count task, measures. */
    private RecoverySample measure(int tasks, String mode, int run, Duration phase, Duration heartbeatPhase)
            throws Exception {
        int hosts = layout.hostsFor(tasks) + standbyHosts;
        while (processes.liveHostIds().size() < hosts) { // the newest host is the router's standby
            startup.startHost(router, processes.nextHostId());
        }
        for (HostId surplus : processes.liveHostIds().subList(0, Math.max(0, processes.liveHostIds().size() - hosts))) {
            processes.stopHost(surplus); // the oldest: a smaller job after a bigger one
        }
        int quarter = Math.max(1, tasks / 4);
        String id = ("recovery-" + tasks + "-" + mode + "-" + run).toLowerCase(Locale.ROOT);
        String spec = """
                {"id": "%s", "recovery": {"mode": "%s"}, "checkpointing": {"intervalMs": %d},
                 "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d,
                   "config": {"count": %d, "keys": 10000, "ratePerSecond": %d, "pacedSince": %d}},
                  {"id": "count", "type": "keyed-count", "parallelism": %d, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "count"}]}
                ]}""".formatted(id, mode, CHECKPOINT_INTERVAL_MS, quarter, input.perSourceTask(quarter) * quarter * 120,
                input.perSourceTask(quarter) * quarter, System.currentTimeMillis(), tasks - 2 * quarter, quarter);
        TopologyId topology = router.deploy(spec).id();
        try {
            return measure(topology, id, mode, phase, heartbeatPhase);
        } finally {
            deleteQuietly(topology); // also when not measured: a job left running would load the next runs
        }
    }

    private RecoverySample measure(TopologyId topology, String id, String mode, Duration phase, Duration heartbeatPhase)
            throws InterruptedException {
        // by id: the router lists only the latest few checkpoints
        await(POLL, () -> router.checkpoints(topology).latestCompletedCheckpoint()
                        .filter(latest -> latest.checkpointId().value() >= CHECKPOINTS_BEFORE_THE_KILL).isPresent(),
                CHECKPOINTS_BEFORE_THE_KILL + " completed checkpoints of " + id);
        HostId victim = hostRunningCount(router.topology(topology));
        long cpuBusy = Math.round(MachineCpu.busyOver(Duration.ofSeconds(1)).orElse(-0.01) * 100);
        long checkpointMillis = router.checkpoints(topology).latestCompletedCheckpoint()
                .map(CheckpointSummary::durationMillis).orElse(-1L);
        Instant trigger = awaitNextTrigger(topology, id);
        Instant at = faultTime(victim, trigger.plus(phase), heartbeatPhase);
        try (HostFault.Injected injected = ScheduledChecks.runAt(at, fault + " " + victim,
                () -> fault.inject(processes, victim))) {
            Instant faultAt = injected.at();
            Optional<RejoinWatch> rejoinWatch = injected.endsAt()
                    .map(end -> RejoinWatch.start(router, topology, victim, end));
            try {
                RecoveryView recovery = awaitRecovery(topology, id, mode, victim);
                RecoverySample.Rejoin rejoin = rejoinWatch.isEmpty() ? null : rejoinOf(rejoinWatch.get(), injected);
                Instant detectedAt = recovery.detection().detectedAt();
                Instant caughtUpAt = recovery.timings().caughtUpAt();
                Instant restoredAt = detectedAt.plusMillis(recovery.timings().restoreMillis());
                RecoverySample.Phases phases = new RecoverySample.Phases(
                        Duration.between(faultAt, detectedAt).toMillis(),
                        Duration.between(detectedAt, restoredAt).toMillis(),
                        Math.max(0, Duration.between(restoredAt, caughtUpAt).toMillis()), // 0: caught up
                        // before the router had recorded the restore (its record waits for the hosts' answers)
                        Duration.between(faultAt, caughtUpAt).toMillis());
                RecoverySample.Conditions before = new RecoverySample.Conditions(cpuBusy,
                        Duration.between(trigger, faultAt).toMillis(), checkpointMillis, Duration.between(
                                detectedAt.minusMillis(recovery.detection().detectionMillis()), faultAt).toMillis());
                return new RecoverySample(phases, recovery.local() == null
                        || recovery.local().replayedRecords() == null ? -1 : recovery.local().replayedRecords(),
                        !Boolean.FALSE.equals(recovery.restoration().otherTasksPaused()), before, rejoin,
                        PredictedPhases.of(recovery));
            } finally {
                rejoinWatch.ifPresent(RejoinWatch::close);
            }
        } finally {
            if (fault.victimReturns()) { // resumed by now: closing the injection ended its freeze
                awaitLiveOrKill(victim);
            }
        }
    }

    /** Waits until the recovery of {@code victim}'s tasks caught up, and checks it ran in {@code mode}. */
    private RecoveryView awaitRecovery(TopologyId topology, String id, String mode, HostId victim)
            throws InterruptedException {
        await(POLL, () -> recoveryOf(topology, victim).map(r -> {
            if (r.isAbandoned()) { // e.g. a live host declared dead meanwhile on a saturated machine: a new recovery
                throw new IllegalStateException("the recovery of " + id + " was abandoned: " + r.outcome().message());
            }
            return r.isRecovered() && r.timings().caughtUpAt() != null;
        }).orElse(false), "recovery of " + id);
        RecoveryView recovery = recoveryOf(topology, victim).orElseThrow();
        if (!mode.equals(recovery.restoration().mode().name())) {
            throw new IllegalStateException(id + " was recovered " + recovery.restoration().mode() + ", not " + mode
                    + ": "
                    + (recovery.local() == null ? recovery.outcome().message() : recovery.local().fallbackReason()));
        }
        return recovery;
    }

    /** How the frozen victim came back: waits until it rejoined and its reports were watched. */
    private static RecoverySample.Rejoin rejoinOf(RejoinWatch watch, HostFault.Injected injected) throws InterruptedException {
        RejoinWatch.Rejoined rejoined = watch.await(REJOIN_TIMEOUT);
        Instant resumedAt = injected.awaitEnd().orElseThrow();
        return new RecoverySample.Rejoin(Duration.between(injected.at(), rejoined.at()).toMillis(),
                Duration.between(resumedAt, rejoined.at()).toMillis(), rejoined.staleTasks());
    }

    /**
     * Waits until the resumed {@code victim} is LIVE in the router, up to {@link #REJOIN_TIMEOUT}, so that the next run
     * starts with as many hosts as a kill's fresh replacement gives it; kills it if it is not (the next run then
     * starts a fresh host in its place).
     */
    private void awaitLiveOrKill(HostId victim) throws InterruptedException {
        try {
            ScheduledChecks.await(POLL, REJOIN_TIMEOUT, () -> router.hosts().stream()
                    .anyMatch(host -> host.hostId().equals(victim) && host.isLive()), victim + " LIVE again");
        } catch (IllegalStateException e) {
            System.out.println("  (" + e.getMessage() + "; killing it, a fresh host replaces it for the next run)");
            processes.killHost(victim);
        }
    }

    /**
     * When to kill or freeze {@code victim}: {@code heartbeatPhase} after one of its heartbeats, within half a
     * heartbeat interval of {@code intended} (its place in the checkpoint cycle), by the latest heartbeat the router
     * recorded, read just before that window opens; {@code intended} if the router lists none.
     */
    private Instant faultTime(HostId victim, Instant intended, Duration heartbeatPhase) throws InterruptedException {
        Instant opens = intended.minus(HEARTBEAT_INTERVAL.dividedBy(2));
        Optional<Instant> last = ScheduledChecks.runAt(opens.minus(HEARTBEAT_READ_AHEAD),
                "read the heartbeats of " + victim, () -> lastHeartbeatOf(victim));
        if (last.isEmpty()) {
            return intended;
        }
        Instant notBefore = Instant.now().isAfter(opens) ? Instant.now() : opens;
        Instant at = last.get().plus(heartbeatPhase);
        while (at.isBefore(notBefore)) {
            at = at.plus(HEARTBEAT_INTERVAL);
        }
        return at;
    }

    private Optional<Instant> lastHeartbeatOf(HostId host) {
        return router.hosts().stream().filter(view -> view.hostId().equals(host)).findFirst()
                .map(HostView::lastHeartbeat);
    }

    /**
     * When the next checkpoint of the topology was triggered, by the router's record: waits for one triggered after
     * the latest listed now (the router triggers them one interval apart, give or take its tick).
     */
    private Instant awaitNextTrigger(TopologyId topology, String id) throws InterruptedException {
        long before = latestTrigger(topology).map(latest -> latest.checkpointId().value()).orElse(0L);
        await(TRIGGER_POLL, () -> latestTrigger(topology).filter(latest -> latest.checkpointId().value() > before)
                        .isPresent(),
                "the next checkpoint trigger of " + id);
        return Objects.requireNonNull(latestTrigger(topology).orElseThrow().triggeredAt());
    }

    private Optional<CheckpointSummary> latestTrigger(TopologyId topology) {
        return router.checkpoints(topology).checkpoints().stream().filter(c -> c.triggeredAt() != null)
                .max(Comparator.comparing(CheckpointSummary::checkpointId));
    }

    private void deleteQuietly(TopologyId topology) {
        try {
            router.delete(topology);
        } catch (RuntimeException e) {
            System.out.println("  (could not delete " + topology + ": " + e.getMessage() + ")");
        }
    }

    private Optional<RecoveryView> recoveryOf(TopologyId topology, HostId failed) {
        return router.recoveries(topology).stream()
                .filter(r -> r.topology().equals(topology) && r.detection().failedHost().equals(failed)).findFirst();
    }

    private HostId hostRunningCount(TopologyDetail view) {
        return view.tasks().stream().filter(task -> task.task().operator().value().equals("count"))
                .map(TaskState::host).filter(host -> processes.liveHostIds().contains(host)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no live host runs a count task: " + view.tasks()));
    }

    /** As {@link ScheduledChecks#await}, up to {@link #TIMEOUT}. */
    private static void await(Duration every, BooleanSupplier condition, String what) throws InterruptedException {
        ScheduledChecks.await(every, TIMEOUT, condition, what);
    }
}
