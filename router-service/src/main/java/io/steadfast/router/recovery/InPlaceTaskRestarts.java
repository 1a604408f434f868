package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts in place, on their live host, tasks that failed (threw) or stopped taking checkpoints, as a local recovery
 * of every task of the topology on that host (tasks of one host share same-host channels, which log nothing to replay
 * from), after {@link TaskRestartPolicy}'s backoff; a task out of restarts fails its topology for good. Runs on the
 * recovery thread.
 */
final class InPlaceTaskRestarts {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceTaskRestarts.class);
    /** The failure reason of a topology whose task kept failing on a live host: never retried. */
    static final String TASK_FAILED_REPEATEDLY = "TASK_FAILED_REPEATEDLY";
    /** How many checkpoints in a row a live task may miss before it is restarted in place. */
    static final int EXPIRIES_BEFORE_RESTART = 3;

    private final RecoveryContext context;
    private final TopologyProgress progress;
    private final HostClient hostClient;
    private final RecoveryRequest.Starter recoveries;
    private final TaskRestartPolicy restarts =
            new TaskRestartPolicy(5, Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofSeconds(30));
    private final TaskFailureCounts failures = new TaskFailureCounts();
    /** Topologies that failed for good (a task out of restarts). */
    private final Set<TopologyId> givenUp = ConcurrentHashMap.newKeySet();

    InPlaceTaskRestarts(RecoveryContext context, TopologyProgress progress, HostClient hostClient,
                        RecoveryRequest.Starter recoveries) {
        this.context = context;
        this.progress = progress;
        this.hostClient = hostClient;
        this.recoveries = recoveries;
    }

    /**
     * Restarts the tasks that failed on a live host. A task out of restarts fails its topology: the recovery is
     * recorded FAILED ({@value #TASK_FAILED_REPEATEDLY}, with the task's exception) and never retried. A task counts
     * as failed only when the incarnation the router placed reports it, so a report of the incarnation just restarted
     * never restarts the new one. One topology at a time; none while a recovery of it is still redeploying.
     */
    void restartFailedTasks() {
        Instant now = context.clock().instant();
        for (DeployedTopology topology : context.topologies().all()) {
            if (givenUp.contains(topology.id())) {
                continue;
            }
            Map<HostId, List<TaskReport>> failedByHost = new TreeMap<>();
            topology.placement().forEach((task, host) -> liveHost(host)
                    .flatMap(registered -> registered.report(task.toString()))
                    .filter(report -> report.status() == TaskStatus.FAILED
                            && report.incarnation() == topology.incarnationOf(task))
                    .ifPresent(report -> {
                        failures.failed(task, report.incarnation());
                        failedByHost.computeIfAbsent(host, h -> new ArrayList<>()).add(report);
                    }));
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
     * Restarts, as for a failed task, the tasks that did not acknowledge {@value #EXPIRIES_BEFORE_RESTART} checkpoints
     * in a row of a topology that is not being recovered, on a host that is LIVE: a task that heartbeats on but never
     * takes its barrier (wedged behind a lost frame, a stuck operator) would otherwise keep every later checkpoint
     * from completing, and its output logs from ever being truncated. A missing task on a DEAD host is left to that
     * host's recovery.
     */
    void restartTasksMissingCheckpoints() {
        Instant now = context.clock().instant();
        for (DeployedTopology topology : context.topologies().all()) {
            if (givenUp.contains(topology.id()) || context.coordinators().isPaused(topology.id())) {
                continue;
            }
            Map<TaskId, HostId> missed = context.coordinators().coordinator(topology.id())
                    .map(coordinator -> coordinator.missedByExpiries(EXPIRIES_BEFORE_RESTART)).orElse(Map.of());
            Map<HostId, List<TaskId>> byHost = new TreeMap<>();
            missed.forEach((task, host) -> byHost.computeIfAbsent(host, h -> new ArrayList<>()).add(task));
            for (Map.Entry<HostId, List<TaskId>> stuck : byHost.entrySet()) {
                Optional<RegisteredHost> host = liveHost(stuck.getKey());
                if (host.isEmpty()) {
                    continue;
                }
                List<TaskId> tasks = stuck.getValue().stream().sorted().toList();
                if (restartOnLiveHost(topology, stuck.getKey(), tasks, "did not acknowledge "
                        + EXPIRIES_BEFORE_RESTART + " checkpoints in a row: " + diagnosis(host.get(), tasks),
                        DetectionCause.CHECKPOINTS_EXPIRED, now, null)) {
                    return;
                }
            }
        }
    }

    /** How often each operator's tasks failed on a live host. */
    TaskFailureCounts failures() {
        return failures;
    }

    private Optional<RegisteredHost> liveHost(HostId host) {
        return context.detector().host(host)
                .filter(registered -> context.detector().statusOf(registered) == HostStatus.LIVE);
    }

    /** What {@code host} last reported of each of {@code tasks}. */
    private static String diagnosis(RegisteredHost host, List<TaskId> tasks) {
        return tasks.stream().map(task -> task + " (" + host.report(task.toString())
                .map(report -> report.status() + ", " + report.recordsIn() + " records in, "
                        + report.queuedFrames() + " frames queued, backpressured "
                        + report.backpressuredMillis() + " ms")
                .orElse("not reported by its host") + ")").collect(Collectors.joining(", "));
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
        Optional<RegisteredHost> registered = context.detector().host(host);
        if (registered.isEmpty()) {
            return false;
        }
        List<TaskId> lost = LostTasks.on(topology, host);
        LOG.warn("Task(s) {} of '{}' on live host {} {}; restarting the topology's tasks {} there in place, restart {}"
                + " of at most {} within {}", culprits, topology.id(), host, why, lost, restart.attempt(),
                restarts.maxAttempts(), restarts.window());
        culprits.forEach(task -> restarts.restarted(task, now));
        // stopped first, with their same-host peers (same-host channels log nothing to replay from): the restarted
        // incarnations replace them, and the other hosts refuse what the old ones still send once redirected
        GlobalRecovery.cancelQuietly(hostClient, registered.get(), topology);
        recoveries.start(new RecoveryRequest(topology, new DetectedFailure(host, registered.get().lastHeartbeat(), now,
                cause), lost, host, false));
        return true;
    }

    private void giveUp(DeployedTopology topology, HostId host, TaskId task, String failure, int attempts) {
        givenUp.add(topology.id());
        Instant now = context.clock().instant();
        String text = "Task " + task + " of topology '" + topology.id() + "' failed on host " + host + " "
                + attempts + " times within " + restarts.window() + " (at most " + restarts.maxAttempts() + " restarts);"
                + " the topology is FAILED and is not restarted again. Last failure: " + failure
                + ". Fix the operator or its input, then cancel and deploy the topology again";
        Recovery recovery = Recovery.builder().id(context.log().nextId()).topology(topology.id()).tasks(List.of(task))
                .failure(host, now, now).detection(0, DetectionCause.TASK_FAILED)
                .restoration(null, topology.plan().epoch(), progress.sinkRecordsIn(topology))
                .status(RecoveryStatus.RECOVERING, null, "giving up").build();
        context.log().supersede(recovery);
        context.log().save(recovery.failed(TASK_FAILED_REPEATEDLY, text));
        context.coordinators().pause(topology.id(), text);
        LOG.error(text);
    }
}
