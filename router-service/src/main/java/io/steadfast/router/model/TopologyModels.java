package io.steadfast.router.model;

import io.steadfast.model.ChannelCosts;
import io.steadfast.model.CheckpointTiming;
import io.steadfast.model.DelayModel;
import io.steadfast.model.FrameBatching;
import io.steadfast.model.ModeChoice;
import io.steadfast.model.ModelReport;
import io.steadfast.model.RecoverySettings;
import io.steadfast.model.RestartCost;
import io.steadfast.model.RestoreCost;
import io.steadfast.model.RestoreOrder;
import io.steadfast.model.TaskLoad;
import io.steadfast.model.TaskState;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The delay model of each deployed topology, fed with what the router knows now: each task's rates and busy share
 * from its host's latest heartbeat, its state from the latest completed checkpoint ({@link CheckpointFacts}), the
 * checkpoint's interval and age, the failure detector's settings, and {@link ModelProperties} for the rest. Every
 * call computes afresh from the latest figures. Thread-safe.
 */
public final class TopologyModels {

    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector detector;
    private final CheckpointCoordinators coordinators;
    private final CheckpointFacts checkpoints;
    private final RouterObservation observation;
    private final ModelProperties properties;
    private final FrameBatching batching;
    private final Clock clock;

    public TopologyModels(TopologyRepository topologies, HeartbeatFailureDetector detector,
                          CheckpointCoordinators coordinators, CheckpointFacts checkpoints,
                          RouterObservation observation, ModelProperties properties, TaskSettings taskSettings,
                          Clock clock) {
        this.topologies = topologies;
        this.detector = detector;
        this.coordinators = coordinators;
        this.checkpoints = checkpoints;
        this.observation = observation;
        this.properties = properties;
        this.batching = new FrameBatching(taskSettings.linger(), taskSettings.shortLinger(),
                taskSettings.shortLingerRecords());
        this.clock = clock;
    }

    /** The model of a deployed topology now; empty if it is not deployed. */
    public Optional<ModelReport> report(TopologyId id) {
        return topologies.find(id).map(this::report);
    }

    /** The model of {@code topology} now. */
    public ModelReport report(DeployedTopology topology) {
        return report(topology, checkpoints.latest(topology), clock.instant(), detectionSeconds());
    }

    /**
     * Both modes' predicted recovery of {@code topology} after {@code failure}: its host, last seen alive at its last
     * heartbeat, is taken to have failed half a heartbeat interval later, as the detection time assumes; the
     * detection is then what was seen, from that moment to the failure's detection, rather than the settings' mean
     * (a frozen host is declared dead at the heartbeat timeout, later than a crashed one). Reads nothing: the
     * checkpoint's facts are those known already. Empty if the host runs no task of it.
     */
    public Optional<RecoveryForecasts> forecast(DeployedTopology topology, DetectedFailure failure) {
        if (!topology.placement().containsValue(failure.host())) {
            return Optional.empty();
        }
        Instant failedAt = failure.lastHeartbeat().plus(observation.heartbeatInterval().dividedBy(2));
        double detection = Math.max(0, Duration.between(failedAt, failure.detectedAt()).toNanos() / 1e9);
        ModeChoice choice = report(topology, checkpoints.latestKnown(topology), failedAt, detection)
                .ifLost(failure.host());
        return Optional.of(new RecoveryForecasts(ModelViews.forecastOf(choice.local()),
                ModelViews.forecastOf(choice.global()), choice.faster().map(Enum::name).orElse(null),
                choice.reason()));
    }

    private ModelReport report(DeployedTopology topology, CheckpointFacts.Latest checkpoint, Instant at,
                               double detectionSeconds) {
        Map<TaskId, TaskReport> reports = reportsOf(topology);
        double age = checkpoint.ageSeconds(at);
        List<TaskLoad> loads = new ArrayList<>();
        for (TaskSpec task : topology.plan().tasks()) {
            TaskReport report = reports.get(task.id());
            loads.add(loadOf(task.id(), report, checkpoint.stateBytes(task.id()), age));
        }
        return DelayModel.forPlan(topology.plan()).loads(loads).channelCosts(channelCosts(topology, reports))
                .placement(topology.placement()).recovery(settings(topology, checkpoint, age, detectionSeconds)).report();
    }

    private Map<TaskId, TaskReport> reportsOf(DeployedTopology topology) {
        Map<TaskId, TaskReport> reports = new HashMap<>();
        for (TaskSpec task : topology.plan().tasks()) {
            detector.host(topology.placement().get(task.id())).flatMap(host -> host.report(task.id().toString()))
                    .ifPresent(report -> reports.put(task.id(), report));
        }
        return reports;
    }

    /**
     * A task's load: λ its input rate, E[S] its busy share over that rate, the records it sent since the checkpoint
     * its output rate times the checkpoint's age. A task its host has not reported yet has no load.
     */
    private TaskLoad loadOf(TaskId task, TaskReport report, long stateBytes, double ageSeconds) {
        if (report == null) {
            return new TaskLoad(task, 0, 0, properties.arrivalScv(), properties.serviceScv(), 0,
                    new TaskState(stateBytes, 0));
        }
        double rate = report.recordsInPerSecond();
        double busy = report.busyFraction() == null ? 0 : report.busyFraction();
        double service = rate > 0 ? busy / rate : 0;
        long logged = Math.round(report.recordsOutPerSecond() * ageSeconds);
        double frames = report.framesInPerSecond() == null ? 0 : report.framesInPerSecond();
        return new TaskLoad(task, rate, service, properties.arrivalScv(), properties.serviceScv(),
                report.queuedFrames(), new TaskState(stateBytes, logged), TaskLoad.recordsPerFrame(rate, frames));
    }

    /**
     * Per operator edge: the wait in output frames its upstream tasks measured (the batching model's at the edge's
     * mean channel rate for a task that did not), and the configured network delay.
     */
    private ChannelCosts channelCosts(DeployedTopology topology, Map<TaskId, TaskReport> reports) {
        return batching.channelCosts(topology.plan(),
                task -> reports.containsKey(task) ? reports.get(task).recordsOutPerSecond() : 0,
                task -> measuredOutputWait(reports.get(task)), ModelProperties.seconds(properties.network()));
    }

    private static OptionalDouble measuredOutputWait(TaskReport report) {
        return report == null || report.outputWaitMillis() == null ? OptionalDouble.empty()
                : OptionalDouble.of(report.outputWaitMillis() / 1000);
    }

    private RecoverySettings settings(DeployedTopology topology, CheckpointFacts.Latest checkpoint,
                                      double ageSeconds, double detectionSeconds) {
        Duration interval = coordinators.settingsOf(topology).interval();
        return new RecoverySettings(detectionSeconds,
                new RestartCost(ModelProperties.seconds(properties.restartPerRecovery()),
                        ModelProperties.seconds(properties.restartPerTask()),
                        ModelProperties.seconds(properties.globalRestartExtra())),
                new RestoreCost(properties.restorePerSecond().toBytes(),
                        ModelProperties.seconds(properties.restoreFetch()), RestoreOrder.PER_HOST),
                CheckpointTiming.measured(ModelProperties.seconds(interval), checkpoint.durationSeconds(),
                        ageSeconds), RecoverySettings.DEFAULT_SKIP_SECONDS_PER_RECORD,
                observation.globalCatchUpSeenAfterSeconds());
    }

    /** How long the router takes to declare a crashed host dead ({@link RouterObservation#detectionSeconds()}). */
    public double detectionSeconds() {
        return observation.detectionSeconds();
    }
}
