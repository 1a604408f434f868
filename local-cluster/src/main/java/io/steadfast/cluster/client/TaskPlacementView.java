package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;

/** Where the router placed one task, as returned when a topology is deployed. */
public record TaskPlacementView(String task, HostId host) {
}
