package io.steadfast.protocol.router;

import org.jspecify.annotations.Nullable;

/**
 * What the delay model predicted for a recovery when its host failed, in both modes, to hold beside what was
 * measured: the prediction of the mode it took shows how well the model does, that of the other what choosing it
 * would have cost.
 *
 * @param local the predicted LOCAL recovery
 * @param global the predicted GLOBAL recovery
 * @param faster the mode predicted to recover sooner, or null if neither catches up at the rates measured
 * @param reason why, in a line with the figures
 * @param chosen the mode a topology of recovery mode AUTO recovered in by this forecast (its {@code faster}, LOCAL
 *               when neither catches up); null for a topology whose mode is fixed
 */
public record RecoveryForecasts(RecoveryForecast local, RecoveryForecast global, @Nullable String faster,
                                String reason, @Nullable String chosen) {

    /** A forecast that chose nothing. */
    public RecoveryForecasts(RecoveryForecast local, RecoveryForecast global, @Nullable String faster,
                             String reason) {
        this(local, global, faster, reason, null);
    }

    /** This forecast, recording that an AUTO recovery chose {@code mode} by it. */
    public RecoveryForecasts chose(String mode) {
        return new RecoveryForecasts(local, global, faster, reason, mode);
    }

    /** The prediction for {@code mode} (LOCAL or GLOBAL). */
    public RecoveryForecast of(String mode) {
        return "LOCAL".equals(mode) ? local : global;
    }
}
