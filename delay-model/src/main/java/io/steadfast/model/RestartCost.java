package io.steadfast.model;

/**
 * What it costs to deploy tasks again after a failure, before any state is restored: the router's decision and
 * the wiring (fixed per recovery), and each task's creation and channel set-up (per task, one after another).
 *
 * @param perRecoverySeconds paid once per recovery
 * @param perTaskSeconds paid for each task deployed again
 * @param globalExtraSeconds paid once more by a GLOBAL recovery, which first cancels the job on every live host and
 *                           then deploys it anew on all of them, where a LOCAL one starts the lost tasks on one
 */
public record RestartCost(double perRecoverySeconds, double perTaskSeconds, double globalExtraSeconds) {

    public RestartCost {
        Finite.atLeastZero("RestartCost", "perRecoverySeconds", perRecoverySeconds);
        Finite.atLeastZero("RestartCost", "perTaskSeconds", perTaskSeconds);
        Finite.atLeastZero("RestartCost", "globalExtraSeconds", globalExtraSeconds);
    }

    /** A cost the same for both modes. */
    public RestartCost(double perRecoverySeconds, double perTaskSeconds) {
        this(perRecoverySeconds, perTaskSeconds, 0);
    }

    /** The restart of {@code tasks} tasks: per recovery + tasks × per task. */
    public double seconds(int tasks) {
        return perRecoverySeconds + tasks * perTaskSeconds;
    }

    /** A GLOBAL recovery's restart of {@code tasks} tasks: {@link #seconds} + the global extra. */
    public double globalSeconds(int tasks) {
        return seconds(tasks) + globalExtraSeconds;
    }
}
