package io.steadfast.protocol.router;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A predicted recovery in one mode, step by step: in the topology's model ({@link TopologyModel}) for every host it
 * could lose, and in a recovery record beside what was measured.
 *
 * @param mode LOCAL or GLOBAL
 * @param totalMillis from the failure until the topology has caught up; null if it never catches up at the measured
 *                    rates (a task it needs has no spare capacity)
 * @param catchUpMillis the catch-up step alone; null as {@code totalMillis}
 * @param reprocessedRecords the records processed again: for LOCAL what the upstream logs replay to the lost tasks,
 *                           for GLOBAL what every task takes in again from the checkpoint on
 * @param steps detection, restart, restore and catch-up, in that order
 */
public record RecoveryForecast(String mode, @Nullable Double totalMillis, @Nullable Double catchUpMillis,
                               long reprocessedRecords, List<Step> steps) {

    /**
     * @param name detection, restart, restore or catch-up
     * @param millis how long it takes; null if it never ends
     * @param explanation the formula with its numbers
     */
    public record Step(String name, @Nullable Double millis, String explanation) {
    }
}
