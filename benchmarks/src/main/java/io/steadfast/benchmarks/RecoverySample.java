package io.steadfast.benchmarks;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One measured recovery of {@link RecoveryBenchmark}, in milliseconds from the fault (the SIGKILL or the SIGSTOP).
 *
 * @param phases       how long each phase of the recovery took
 * @param before       the machine and the job when the fault came
 * @param rejoin       how the frozen victim came back, or null after a kill
 * @param predicted    what the router's delay model predicted for the mode it recovered in, when the host failed
 *                     (detection, restore = restart + restore, catch-up, total), or null if it predicted nothing or
 *                     not every step
 */
record RecoverySample(Phases phases, long replayedRecords, boolean othersPaused, Conditions before,
                      @Nullable Rejoin rejoin, @Nullable Phases predicted) {

    /**
     * The phases of a recovery, in milliseconds.
     *
     * @param detection until the router declared the host dead
     * @param restore   until the lost tasks (all tasks in GLOBAL mode) ran again from the checkpoint
     * @param catchUp   until the recovered tasks had caught up
     * @param total     from the fault until caught up
     */
    record Phases(long detection, long restore, long catchUp, long total) {
    }

    /**
     * When the fault came.
     *
     * @param cpuBusyPercent   how busy the machine's CPUs were in the second before the fault (-1 if unknown)
     * @param faultPhase       how long after the latest checkpoint trigger the fault fell
     * @param checkpointMillis how long the latest checkpoint completed before the fault took, trigger to completion
     *                         (a fault before the new one completes restores from the one before)
     * @param heartbeatPhase   how long after the victim's last heartbeat the fault fell, by the router's record
     */
    record Conditions(long cpuBusyPercent, long faultPhase, long checkpointMillis, long heartbeatPhase) {
    }

    /**
     * How a frozen victim came back.
     *
     * @param rejoined    milliseconds from the freeze until the router listed it LIVE again under a new session
     * @param afterResume of which since the SIGCONT
     * @param staleTasks  the tasks it ran before the freeze that it still reported after it rejoined, with their
     *                    status (none, if it fenced itself)
     */
    record Rejoin(long rejoined, long afterResume, List<String> staleTasks) {
    }

    /** The delay model's predicted total for the mode it recovered in, or -1 if the recovery carries none. */
    long predictedTotal() {
        return predicted == null ? -1 : predicted.total();
    }

    /** |predicted − measured| / measured of the total, in percent; -1 without a prediction. */
    long totalErrorPercent() {
        return predicted == null || phases.total() <= 0 ? -1
                : Math.round(100.0 * Math.abs(predicted.total() - phases.total()) / phases.total());
    }

    long detection() {
        return phases.detection();
    }

    long restore() {
        return phases.restore();
    }

    long catchUp() {
        return phases.catchUp();
    }

    long total() {
        return phases.total();
    }

    long cpuBusyPercent() {
        return before.cpuBusyPercent();
    }

    long checkpointMillis() {
        return before.checkpointMillis();
    }

    /** The time the recovery itself took, without the detection: restore and catch-up. */
    long recoveryAlone() {
        return phases.restore() + phases.catchUp();
    }

    /** Milliseconds from the freeze until the victim was LIVE again, or -1 after a kill. */
    long rejoined() {
        return rejoin == null ? -1 : rejoin.rejoined();
    }

    /** Whether the frozen victim still reported any of its former tasks after it rejoined. */
    boolean hasStaleTasks() {
        return rejoin != null && !rejoin.staleTasks().isEmpty();
    }
}
