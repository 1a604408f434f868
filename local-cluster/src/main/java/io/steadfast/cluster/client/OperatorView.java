package io.steadfast.cluster.client;

import io.steadfast.runtime.topology.OperatorId;

/** Totals over all tasks of one operator, from {@code GET /api/v1/topologies/{id}}. */
public record OperatorView(OperatorId operator, long recordsIn, long recordsOut, double eventsPerSecond) {
}
