package io.steadfast.model;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import java.util.Objects;
import java.util.Optional;

/**
 * Both modes' predictions for losing one host, and the faster, with the reason in a line: what an AUTO recovery
 * mode chooses by.
 *
 * @param lostHost the host lost
 * @param local the LOCAL prediction
 * @param global the GLOBAL prediction
 * @param faster the mode that catches up first; LOCAL on a tie (the other tasks keep running); empty if neither
 *               catches up at these rates
 * @param reason why, with the totals and the records each would process again
 */
public record ModeChoice(HostId lostHost, RecoveryPrediction local, RecoveryPrediction global,
                         Optional<RecoveryMode> faster, String reason) {

    public ModeChoice {
        Objects.requireNonNull(lostHost, "lostHost");
        Objects.requireNonNull(faster, "faster");
        Objects.requireNonNull(reason, "reason");
        if (local.mode() != RecoveryMode.LOCAL || global.mode() != RecoveryMode.GLOBAL) {
            throw new IllegalArgumentException("a mode choice takes a LOCAL and a GLOBAL prediction, was "
                    + local.mode() + " and " + global.mode());
        }
        if (!local.lostHost().equals(lostHost) || !global.lostHost().equals(lostHost)) {
            throw new IllegalArgumentException("both predictions must be for losing " + lostHost);
        }
    }

    /** The faster of the two predictions for losing the same host. */
    public static ModeChoice between(RecoveryPrediction local, RecoveryPrediction global) {
        HostId host = local.lostHost();
        String records = "LOCAL replays " + Figures.records(local.reprocessedRecords()) + " records to "
                + Figures.tasks(local.lostTasks().size()) + " from the upstream logs, GLOBAL processes "
                + Figures.records(global.reprocessedRecords()) + " again in all tasks";
        if (local.neverCatchesUp() && global.neverCatchesUp()) {
            return new ModeChoice(host, local, global, Optional.empty(), "neither mode catches up at these rates: "
                    + String.join(", ", global.saturatedTasks().stream().map(Object::toString).toList())
                    + " have no spare capacity");
        }
        if (global.neverCatchesUp()) {
            return new ModeChoice(host, local, global, Optional.of(RecoveryMode.LOCAL), "LOCAL: "
                    + seconds(local) + "; GLOBAL never catches up (" + global.saturatedTasks() + " saturated)");
        }
        if (local.neverCatchesUp()) {
            return new ModeChoice(host, local, global, Optional.of(RecoveryMode.GLOBAL), "GLOBAL: "
                    + seconds(global) + "; LOCAL never catches up (" + local.saturatedTasks() + " saturated)");
        }
        boolean localFaster = local.totalSeconds().getAsDouble() <= global.totalSeconds().getAsDouble();
        String reason = localFaster
                ? "LOCAL: " + seconds(local) + " against GLOBAL " + seconds(global) + "; " + records
                : "GLOBAL: " + seconds(global) + " against LOCAL " + seconds(local) + "; " + records;
        return new ModeChoice(host, local, global,
                Optional.of(localFaster ? RecoveryMode.LOCAL : RecoveryMode.GLOBAL), reason);
    }

    private static String seconds(RecoveryPrediction prediction) {
        return Figures.seconds(prediction.totalSeconds().getAsDouble());
    }
}
