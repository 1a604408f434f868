package io.steadfast.cluster;

import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Hits the hosts of a local cluster that run one job's tasks: freezes them (SIGSTOP, then SIGCONT) and kills them
 * (SIGKILL, with a fresh host started in place of each), by a plan or one at a time, and records which hosts it hit and
 * what kept it from hitting one. Only hosts the router lists as LIVE, that are not frozen and that run an unfinished
 * task of the job are hit, and only while another such LIVE host is left to recover onto, so that a fault never lands
 * on a host that is still starting or has nothing to lose. Hosts running a task that feeds others are preferred to
 * hosts running only sink tasks: a frozen sink's old copy has nobody to mislead when it runs again. Sleeps only for the
 * fault schedule, reporting the job's recoveries meanwhile; the job is assumed to be the only one deployed.
 */
final class HostFaults {

    /** How long a fault waits for a host to hit. */
    static final Duration HOST_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);

    enum Kind { FREEZE, KILL }

    /**
     * One planned fault.
     *
     * @param at when, after {@link #inject} starts
     * @param frozenFor how long a freeze lasts
     * @param pick which of the hosts that may be hit, as a fraction of their number
     * @param preferTakenOver whether to hit a host that took over tasks from an earlier fault, if one runs tasks
     */
    record Fault(int number, Duration at, Kind kind, Duration frozenFor, double pick, boolean preferTakenOver) {

        String describe() {
            return String.format(Locale.ROOT, "+%.1f s ", at.toMillis() / 1000.0)
                    + (kind == Kind.FREEZE ? "freeze " + seconds(frozenFor) : "kill")
                    + (preferTakenOver ? " (a host that took over tasks)" : "");
        }
    }

    private final ClusterProcesses processes;
    private final RouterClient router;
    private final TopologyOutcomes outcomes;
    private final Consumer<String> log;
    private final TopologyId job;
    private final Set<OperatorId> sinks;
    private final Set<HostId> initialHosts;
    private final List<HostId> hit = new ArrayList<>();
    private final List<HostId> hitAfterTakingOver = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    /**
     * @param sinks the job's sink operators
     * @param initialHosts where the job's tasks were placed at deployment
     */
    HostFaults(ClusterProcesses processes, RouterClient router, TopologyOutcomes outcomes, Consumer<String> log,
               TopologyId job, Set<OperatorId> sinks, Set<HostId> initialHosts) {
        this.processes = processes;
        this.router = router;
        this.outcomes = outcomes;
        this.log = log;
        this.job = job;
        this.sinks = Set.copyOf(sinks);
        this.initialHosts = Set.copyOf(initialHosts);
    }

    /** The hosts hit so far, in order. */
    List<HostId> hit() {
        return List.copyOf(hit);
    }

    /** The hosts hit while they ran tasks they had taken over from an earlier fault. */
    List<HostId> hitAfterTakingOver() {
        return List.copyOf(hitAfterTakingOver);
    }

    /** What kept faults from being injected as planned: the job finished first, or no host could be hit in time. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /** Injects the planned faults in order, each at its time or as soon after as a host can be hit. */
    void inject(List<Fault> plan) {
        log.accept(job + ": " + plan.size() + " faults planned: "
                + plan.stream().map(Fault::describe).collect(Collectors.joining("; ")));
        Instant origin = Instant.now();
        for (Fault fault : plan) {
            Duration untilDue = Duration.between(Instant.now(), origin.plus(fault.at()));
            if (!untilDue.isNegative()) {
                pauseReporting(untilDue);
            }
            String name = "fault " + fault.number() + "/" + plan.size();
            Optional<List<HostId>> hosts = awaitHostsToHit(name, () -> true);
            if (hosts.isEmpty()) {
                return;
            }
            List<HostId> tookOver = hosts.get().stream().filter(this::tookOverTasks).toList();
            List<HostId> among = fault.preferTakenOver() && !tookOver.isEmpty() ? tookOver : hosts.get();
            HostId host = among.get((int) (fault.pick() * among.size()));
            String at = String.format(Locale.ROOT, "+%.1f s", Duration.between(origin, Instant.now()).toMillis() / 1000.0);
            if (fault.kind() == Kind.KILL) {
                kill(name + " at " + at, host);
            } else {
                freeze(name + " at " + at, host, fault.frozenFor());
            }
        }
        log.accept(job + ": every planned fault injected, " + seconds(Duration.between(origin, Instant.now()))
                + " after the first");
    }

    /**
     * Waits until hosts may be hit and {@code also} holds; those hosts, sorted: those running a task that feeds others
     * if there are any. Empty, with a problem recorded, if the job finished first or no host could be hit within
     * {@link #HOST_TIMEOUT}.
     */
    Optional<List<HostId>> awaitHostsToHit(String fault, BooleanSupplier also) {
        List<HostId> hosts = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        try {
            await("a host running tasks of %s to hit at %s".formatted(job, fault)).atMost(HOST_TIMEOUT)
                    .pollInterval(POLL).ignoreExceptionsInstanceOf(RouterRequestException.class)
                    .until(() -> {
                        outcomes.reportRecoveryChanges(job);
                        TopologyDetail view = router.topology(job);
                        if (view.allTasksFinished()) {
                            finished.add("finished");
                            return true;
                        }
                        List<HostId> up = upHosts();
                        List<HostId> feeding = TaskHosts.runningUnfinishedTasksOf(view,
                                operator -> !sinks.contains(operator)).stream().filter(up::contains).toList();
                        hosts.clear();
                        hosts.addAll(!feeding.isEmpty() ? feeding
                                : TaskHosts.runningUnfinishedTasks(view).stream().filter(up::contains).toList());
                        return !hosts.isEmpty() && up.size() >= 2 && also.getAsBoolean();
                    });
        } catch (ConditionTimeoutException e) {
            problem(fault + ": no host could be hit within " + HOST_TIMEOUT.toSeconds() + " s (LIVE and running: "
                    + upHosts() + "; tasks: " + router.topology(job).tasks() + ")");
            return Optional.empty();
        }
        if (!finished.isEmpty()) {
            problem(fault + ": the job had finished already; lengthen it or shorten the fault plan");
            return Optional.empty();
        }
        return Optional.of(List.copyOf(hosts));
    }

    /** Kills a host (SIGKILL) and starts a fresh one with a new id, which becomes a standby once LIVE. */
    void kill(String fault, HostId host) {
        boolean tookOver = tookOverTasks(host);
        log.accept(fault + ": killing " + host + " (SIGKILL)" + running(host, tookOver));
        processes.killHost(host);
        recordHit(host, tookOver);
        HostId fresh = processes.nextHostId();
        log.accept("started fresh " + fresh + " pid " + processes.startHost(fresh).pid() + " in place of " + host);
    }

    /** Freezes a host (SIGSTOP) for {@code frozenFor}, then lets it run again (SIGCONT). */
    void freeze(String fault, HostId host, Duration frozenFor) {
        boolean tookOver = tookOverTasks(host);
        log.accept(fault + ": freezing " + host + " (SIGSTOP) for " + seconds(frozenFor) + running(host, tookOver));
        processes.pauseHost(host);
        try {
            pauseReporting(frozenFor);
        } finally {
            processes.resumeHost(host);
        }
        log.accept(fault + ": " + host + " runs again (SIGCONT)");
        recordHit(host, tookOver);
    }

    void recordHit(HostId host, boolean tookOverTasks) {
        hit.add(host);
        if (tookOverTasks) {
            hitAfterTakingOver.add(host);
        }
    }

    void problem(String problem) {
        problems.add(problem);
        log.accept(problem);
    }

    /** The hosts LIVE in the router whose process runs and is not frozen, sorted. */
    List<HostId> upHosts() {
        Set<HostId> live = router.liveHostIds();
        return processes.unpausedHostIds().stream().filter(live::contains).sorted().toList();
    }

    /** The hosts up that run no task of the job: the router's standbys. */
    List<HostId> standbys() {
        List<HostId> busy = TaskHosts.ofTasks(router.topology(job));
        return upHosts().stream().filter(host -> !busy.contains(host)).toList();
    }

    /** Whether a host runs tasks it was not given at deployment, or a recovery of the job placed tasks on it. */
    boolean tookOverTasks(HostId host) {
        return !initialHosts.contains(host) && TaskHosts.ofTasks(router.topology(job)).contains(host)
                || router.recoveries(job).stream().anyMatch(recovery -> recovery.placedAnyTaskOn(host));
    }

    /** Sleeps for a fault schedule, reporting the job's recoveries as they change meanwhile. */
    void pauseReporting(Duration duration) {
        Instant end = Instant.now().plus(duration);
        while (true) {
            try {
                outcomes.reportRecoveryChanges(job);
            } catch (RouterRequestException e) {
                log.accept("the router did not answer: " + e.getMessage());
            }
            long left = Duration.between(Instant.now(), end).toMillis();
            if (left <= 0) {
                return;
            }
            try {
                Thread.sleep(Math.min(left, POLL.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted during the fault schedule", e);
            }
        }
    }

    private String running(HostId host, boolean tookOver) {
        return (tookOver ? ", which took over tasks earlier, running " : ", running ")
                + TaskHosts.tasksOn(router.topology(job), host);
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
