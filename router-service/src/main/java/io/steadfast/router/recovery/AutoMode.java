package io.steadfast.router.recovery;

import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.runtime.plan.RecoveryMode;
import java.util.Optional;

/**
 * How a topology of recovery mode AUTO recovers: in the mode the delay model predicts to catch up first, LOCAL when
 * it cannot tell (no forecast, or neither mode catches up at the measured rates), LOCAL pausing nothing else.
 */
final class AutoMode {

    private AutoMode() {
    }

    static RecoveryMode choose(Optional<RecoveryForecasts> forecast) {
        return forecast.map(RecoveryForecasts::faster).map(RecoveryMode::valueOf).orElse(RecoveryMode.LOCAL);
    }

    /** The recovery's first message: the mode chosen and why. */
    static String describe(RecoveryMode chosen, Optional<RecoveryForecasts> forecast) {
        if (forecast.isEmpty()) {
            return "recovering " + chosen + " (recovery mode AUTO, no forecast: LOCAL, which pauses nothing else)";
        }
        if (forecast.get().faster() == null) {
            return "recovering " + chosen + " (recovery mode AUTO; neither mode is predicted to catch up: "
                    + forecast.get().reason() + ")";
        }
        return "recovering " + chosen + " (recovery mode AUTO, predicted faster: " + forecast.get().reason() + ")";
    }
}
