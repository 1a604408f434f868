package io.steadfast.router.topology;

import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.OperatorRate;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.protocol.router.TopologySummary;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.PlacementWarnings;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Joins deployed topologies with the hosts' latest heartbeats into status views. Thread-safe, read only. */
public final class TopologyMonitor {

    private static final String PENDING = "PENDING";

    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector failureDetector;
    private final CheckpointCoordinators coordinators;
    private final RecoveryLog recoveries;

    public TopologyMonitor(TopologyRepository topologies, HeartbeatFailureDetector failureDetector,
                           CheckpointCoordinators coordinators, RecoveryLog recoveries) {
        this.topologies = topologies;
        this.failureDetector = failureDetector;
        this.coordinators = coordinators;
        this.recoveries = recoveries;
    }

    public List<TopologySummary> list() {
        return topologies.all().stream().map(topology -> {
            List<OperatorId> operators = List.copyOf(operatorsOf(topology).keySet());
            return new TopologySummary(topology.id(), statusOf(tasksOf(topology)), operators,
                    topology.plan().tasks().size(), topology.deployedAt());
        }).toList();
    }

    /**
     * The topology's current execution plan (every task, channel and the epoch): what hosts run, and what a host
     * that may take over tasks of the topology fetches ahead.
     *
     * @throws TopologyException if the topology is unknown
     */
    public ExecutionPlan plan(TopologyId id) {
        return topologies.find(id).orElseThrow(() -> TopologyDeployer.notFound(id)).plan();
    }

    /** @throws TopologyException if the topology is unknown */
    public TopologyDetail detail(TopologyId id) {
        DeployedTopology topology = topologies.find(id).orElseThrow(() -> TopologyDeployer.notFound(id));
        List<TaskState> tasks = tasksOf(topology);
        List<OperatorRate> operators = new ArrayList<>();
        operatorsOf(topology).forEach((operator, subtasks) -> operators.add(rateOf(topology, operator, subtasks)));
        CheckpointId lastCheckpoint = coordinators.lastCompleted(id).map(CompletedCheckpoint::checkpointId)
                .map(CheckpointId::of).orElse(null);
        return new TopologyDetail(id, statusOf(tasks), new TopologyDetail.Milestones(topology.deployedAt(),
                topology.plan().epoch(), lastCheckpoint, recoveries.countOf(id)), topology.spec(), tasks, operators,
                PlacementWarnings.of(topology.plan(), topology.placement()));
    }

    private static Map<OperatorId, List<TaskSpec>> operatorsOf(DeployedTopology topology) {
        Map<OperatorId, List<TaskSpec>> operators = new LinkedHashMap<>();
        topology.plan().tasks().forEach(task ->
                operators.computeIfAbsent(task.id().operator(), o -> new ArrayList<>()).add(task));
        return operators;
    }

    private List<TaskState> tasksOf(DeployedTopology topology) {
        List<TaskState> states = new ArrayList<>();
        for (TaskSpec task : topology.plan().tasks()) {
            HostId hostId = topology.placement().get(task.id());
            Optional<RegisteredHost> host = failureDetector.host(hostId);
            String hostStatus = host.map(h -> failureDetector.statusOf(h).name()).orElse("UNREGISTERED");
            Optional<TaskReport> report = host.flatMap(h -> h.report(task.id().toString()));
            states.add(new TaskState(task.id(), hostId, hostStatus,
                    report.map(r -> r.status().name()).orElse(PENDING), report.map(r -> new TopologyDetail.Traffic(
                            r.recordsIn(), r.recordsOut(), r.recordsInPerSecond(), r.recordsOutPerSecond(),
                            r.queuedFrames(), r.latencyMillis(), r.busyFraction(), r.outputWaitMillis()))
                            .orElse(TopologyDetail.Traffic.NONE),
                    report.map(TaskReport::failure).orElse(null)));
        }
        return states;
    }

    private OperatorRate rateOf(DeployedTopology topology, OperatorId operator, List<TaskSpec> subtasks) {
        long in = 0;
        long out = 0;
        double perSecond = 0;
        OperatorLatency latency = new OperatorLatency();
        for (TaskSpec task : subtasks) {
            boolean sink = task.outputs().isEmpty();
            Optional<RegisteredHost> host = failureDetector.host(topology.placement().get(task.id()));
            if (host.isEmpty()) {
                continue;
            }
            String id = task.id().toString();
            Optional<TaskReport> now = host.get().report(id);
            Optional<TaskReport> before = host.get().previousReport(id);
            now.ifPresent(latency::add);
            in += now.map(TaskReport::recordsIn).orElse(0L);
            out += now.map(TaskReport::recordsOut).orElse(0L);
            if (now.isPresent() && before.isPresent() && host.get().previousHeartbeat() != null) {
                Duration elapsed = Duration.between(host.get().previousHeartbeat(), host.get().lastHeartbeat());
                long delta = sink ? now.get().recordsIn() - before.get().recordsIn()
                        : now.get().recordsOut() - before.get().recordsOut();
                if (!elapsed.isZero() && !elapsed.isNegative()) {
                    perSecond += delta * 1_000_000_000.0 / elapsed.toNanos();
                }
            }
        }
        return new OperatorRate(operator, in, out, perSecond, latency.mean(), latency.outputWait());
    }

    private static String statusOf(List<TaskState> tasks) {
        if (tasks.stream().anyMatch(TaskState::isFailed)) {
            return TopologyDetail.FAILED;
        }
        if (!tasks.isEmpty() && tasks.stream().allMatch(TaskState::isFinished)) {
            return TopologyDetail.FINISHED;
        }
        return "RUNNING";
    }
}
