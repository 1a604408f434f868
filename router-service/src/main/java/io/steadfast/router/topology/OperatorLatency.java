package io.steadfast.router.topology;

import io.steadfast.runtime.host.TaskReport;

/**
 * The mean latency of an operator's records over its tasks: each task's mean over its host's last window, weighted
 * by the records per second it took in, so a busy task counts for the records it handled and an idle one for none.
 */
final class OperatorLatency {

    private double weightedMillis;
    private double weight;

    void add(TaskReport task) {
        Double millis = task.latencyMillis();
        if (millis != null && task.recordsInPerSecond() > 0) {
            weightedMillis += millis * task.recordsInPerSecond();
            weight += task.recordsInPerSecond();
        }
    }

    /** The weighted mean, or null if no task took records in over its window. */
    Double mean() {
        return weight == 0 ? null : weightedMillis / weight;
    }
}
