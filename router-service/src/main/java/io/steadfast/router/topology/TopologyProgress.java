package io.steadfast.router.topology;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads a deployed topology's progress from its hosts' latest heartbeats. Thread-safe, read only. */
public final class TopologyProgress {

    private final HeartbeatFailureDetector hosts;

    public TopologyProgress(HeartbeatFailureDetector hosts) {
        this.hosts = hosts;
    }

    /** Records taken in by the sink tasks (tasks with no output), summed as their hosts last reported. */
    public long sinkRecordsIn(DeployedTopology topology) {
        return topology.plan().tasks().stream().filter(task -> task.outputs().isEmpty())
                .mapToLong(task -> report(topology, task).map(TaskReport::recordsIn).orElse(0L)).sum();
    }

    /** Whether every source task was last reported FINISHED. */
    public boolean sourcesFinished(DeployedTopology topology) {
        return allFinished(topology, topology.plan().sources());
    }

    /** Whether every task was last reported FINISHED. */
    public boolean finished(DeployedTopology topology) {
        return allFinished(topology, topology.plan().tasks());
    }

    /** Whether every host of the topology has sent two heartbeats since {@code since} (so reports are fresh). */
    public boolean reportedTwiceSince(DeployedTopology topology, Instant since) {
        return topology.hosts().stream().allMatch(id -> hosts.host(id).map(host -> host.previousHeartbeat() != null
                && host.previousHeartbeat().isAfter(since)).orElse(false));
    }

    /**
     * Why the topology cannot take a checkpoint now, if it cannot: a host of its tasks that is not registered or
     * not LIVE, or a task its host last reported FAILED. Empty when every task's host is LIVE and no task FAILED.
     */
    public Optional<String> whyNotRunning(DeployedTopology topology) {
        Map<HostId, List<String>> tasksByHost = new TreeMap<>();
        topology.placement().forEach((task, host) ->
                tasksByHost.computeIfAbsent(host, h -> new ArrayList<>()).add("'" + task + "'"));
        List<String> problems = new ArrayList<>();
        tasksByHost.forEach((hostId, tasks) -> {
            tasks.sort(null);
            Optional<RegisteredHost> host = hosts.host(hostId);
            String runs = "host " + hostId + " (tasks " + String.join(", ", tasks) + ")";
            if (host.isEmpty()) {
                problems.add(runs + " has not registered with this router");
            } else if (hosts.statusOf(host.get()) != HostStatus.LIVE) {
                problems.add(runs + " is DEAD: no heartbeat since " + host.get().lastHeartbeat());
            }
        });
        for (TaskSpec task : topology.plan().tasks()) {
            report(topology, task).filter(report -> report.status() == TaskStatus.FAILED)
                    .ifPresent(report -> problems.add("task '" + task.id() + "' FAILED: " + report.failure()));
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    private boolean allFinished(DeployedTopology topology, List<TaskSpec> tasks) {
        return !tasks.isEmpty() && tasks.stream().allMatch(task -> report(topology, task)
                .map(r -> r.status() == TaskStatus.FINISHED).orElse(false));
    }

    private Optional<TaskReport> report(DeployedTopology topology, TaskSpec task) {
        Optional<RegisteredHost> host = hosts.host(topology.placement().get(task.id()));
        return host.flatMap(h -> h.report(task.id().toString()));
    }
}
