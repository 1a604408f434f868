package io.steadfast.router.model;

import io.steadfast.model.ModeChoice;
import io.steadfast.model.ModelReport;
import io.steadfast.model.PathStep;
import io.steadfast.model.RecoveryPrediction;
import io.steadfast.model.TaskDelay;
import io.steadfast.model.TaskLoad;
import io.steadfast.model.TopologyDelay;
import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.TopologyModel;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/** The delay model's results as the router's API gives them: milliseconds, and null where the model has no figure. */
public final class ModelViews {

    private ModelViews() {
    }

    public static TopologyModel of(TopologyId topology, Instant computedAt, ModelReport report) {
        TopologyDelay delay = report.delay();
        List<TopologyModel.TaskModel> tasks = report.loads().stream().map(load -> taskOf(load, report)).toList();
        TopologyModel.EndToEnd endToEnd = new TopologyModel.EndToEnd(millis(delay.endToEndSeconds()),
                millis(delay.meanEndToEndSeconds()), delay.criticalPath().stream().map(PathStep::task).toList(),
                delay.saturatedTasks());
        TopologyModel.RecoveryAssumptions recovery = new TopologyModel.RecoveryAssumptions(
                report.settings().detectionSeconds() * 1000, report.settings().checkpoint().intervalSeconds() * 1000,
                report.settings().checkpoint().ageAtFailureSeconds() * 1000,
                report.settings().restore().bytesPerSecond());
        List<TopologyModel.HostLoss> losses = report.hostLosses().stream().map(ModelViews::lossOf).toList();
        List<TopologyModel.EdgeModel> edges = report.channelCosts().edges().entrySet().stream()
                .map(edge -> new TopologyModel.EdgeModel(edge.getKey().from().value(), edge.getKey().to().value(),
                        edge.getValue().meanLingerSeconds() * 1000, edge.getValue().networkSeconds() * 1000))
                .toList();
        return new TopologyModel(topology, computedAt, report.queueingModel(), tasks, edges, endToEnd, recovery,
                losses);
    }

    private static TopologyModel.TaskModel taskOf(TaskLoad load, ModelReport report) {
        TaskDelay delay = report.delay().delay(load.task());
        return new TopologyModel.TaskModel(load.task(), report.placement().hostOf(load.task()),
                load.arrivalPerSecond(), load.serviceSecondsPerRecord() * 1000, load.recordsPerFrame(),
                delay.utilisation(),
                delay.stability().name(), millis(delay.waitSeconds()), load.state().stateBytes(),
                load.state().loggedRecords());
    }

    private static TopologyModel.HostLoss lossOf(ModeChoice choice) {
        return new TopologyModel.HostLoss(choice.lostHost(), choice.local().lostTasks(), forecastOf(choice.local()),
                forecastOf(choice.global()), choice.faster().map(Enum::name).orElse(null), choice.reason());
    }

    /** One mode's prediction, step by step. */
    public static RecoveryForecast forecastOf(RecoveryPrediction prediction) {
        return new RecoveryForecast(prediction.mode().name(), millis(prediction.totalSeconds()),
                millis(prediction.catchUpSeconds()), Math.round(prediction.reprocessedRecords()),
                prediction.terms().stream().map(term -> new RecoveryForecast.Step(term.name(),
                        millis(term.seconds()), term.explanation())).toList());
    }

    private static Double millis(OptionalDouble seconds) {
        return seconds.isPresent() ? seconds.getAsDouble() * 1000 : null;
    }
}
