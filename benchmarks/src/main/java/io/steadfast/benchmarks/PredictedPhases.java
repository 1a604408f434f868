package io.steadfast.benchmarks;

import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryView;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The phases the router's delay model predicted for a recovery, in the benchmark's terms: its restore is the model's
 * restart and restore together (the benchmark measures from detection until the tasks ran again).
 */
final class PredictedPhases {

    private PredictedPhases() {
    }

    /** The prediction for the mode the recovery ran in; null if it has none, or a step without a figure. */
    static RecoverySample.@Nullable Phases of(RecoveryView recovery) {
        if (recovery.restoration().forecast() == null) {
            return null;
        }
        RecoveryForecast forecast = recovery.restoration().forecast().of(recovery.restoration().mode().name());
        Map<String, Double> steps = forecast.steps().stream().filter(step -> step.millis() != null)
                .collect(Collectors.toMap(RecoveryForecast.Step::name, RecoveryForecast.Step::millis));
        if (forecast.totalMillis() == null || steps.size() < forecast.steps().size()) {
            return null;
        }
        return new RecoverySample.Phases(Math.round(steps.getOrDefault("detection", 0.0)),
                Math.round(steps.getOrDefault("restart", 0.0) + steps.getOrDefault("restore", 0.0)),
                Math.round(steps.getOrDefault("catch-up", 0.0)), Math.round(forecast.totalMillis()));
    }
}
