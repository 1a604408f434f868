package io.steadfast.router.topology;

import io.steadfast.runtime.host.TaskReport;

/**
 * The mean latencies of an operator's records over its tasks, from each task's means over its host's last window:
 * the time a record spends in the operator weighted by the records per second each task took in, and the time its
 * output waited in frames weighted by the records per second each task sent. A busy task counts for the records it
 * handled and an idle one for none.
 */
final class OperatorLatency {

    private final WeightedMean residence = new WeightedMean();
    private final WeightedMean outputWait = new WeightedMean();

    void add(TaskReport task) {
        residence.add(task.latencyMillis(), task.recordsInPerSecond());
        outputWait.add(task.outputWaitMillis(), task.recordsOutPerSecond());
    }

    /** The weighted mean time in the operator, or null if no task took records in over its window. */
    Double mean() {
        return residence.value();
    }

    /** The weighted mean output wait, or null if no task sent records over its window (or measured the wait). */
    Double outputWait() {
        return outputWait.value();
    }

    private static final class WeightedMean {

        private double weightedSum;
        private double weight;

        void add(Double value, double ratePerSecond) {
            if (value != null && ratePerSecond > 0) {
                weightedSum += value * ratePerSecond;
                weight += ratePerSecond;
            }
        }

        Double value() {
            return weight == 0 ? null : weightedSum / weight;
        }
    }
}
