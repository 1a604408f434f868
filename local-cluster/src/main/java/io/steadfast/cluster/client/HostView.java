package io.steadfast.cluster.client;

import io.steadfast.runtime.plan.HostId;
import tools.jackson.databind.JsonNode;

/** A host as the router lists it in {@code GET /api/v1/hosts}. */
public record HostView(HostId hostId, String controlUrl, String dataEndpoint, String status, JsonNode lastHeartbeat,
        JsonNode tasks) {

    public boolean isLive() {
        return "LIVE".equals(status);
    }
}
