package io.steadfast.benchmarks;

import io.steadfast.runtime.dataplane.DataPlaneMetrics;

/** The data-plane counters that tell whether a run needed the recovery protocol, as one line. */
final class DataPlaneCounters {

    private DataPlaneCounters() {
    }

    static String of(DataPlaneMetrics metrics) {
        return "framesSent=" + metrics.framesSent() + " framesResent=" + metrics.framesResent()
                + " syncsSent=" + metrics.syncsSent() + " duplicatesDropped=" + metrics.duplicateFramesDropped()
                + " outOfOrderDropped=" + metrics.outOfOrderFramesDropped() + " corruptDropped="
                + metrics.corruptFramesDropped() + " fencedDropped=" + metrics.fencedMessagesDropped()
                + " acksSent=" + metrics.acksSent()
                + " ioLoopErrors=" + metrics.ioLoopErrors();
    }
}
