package io.steadfast.model;

/**
 * What it costs to deploy tasks again after a failure, before any state is restored: the router's decision and
 * the wiring (fixed per recovery), and each task's creation and channel set-up (per task, one after another).
 *
 * @param perRecoverySeconds paid once per recovery
 * @param perTaskSeconds paid for each task deployed again
 */
public record RestartCost(double perRecoverySeconds, double perTaskSeconds) {

    public RestartCost {
        Finite.atLeastZero("RestartCost", "perRecoverySeconds", perRecoverySeconds);
        Finite.atLeastZero("RestartCost", "perTaskSeconds", perTaskSeconds);
    }

    /** The restart of {@code tasks} tasks: per recovery + tasks × per task. */
    public double seconds(int tasks) {
        return perRecoverySeconds + tasks * perTaskSeconds;
    }
}
