package io.steadfast.cluster.client;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The latest values per key held by a sink operator, from {@code GET /api/v1/topologies/{id}/results/{operator}}. */
public record ResultsView(TopologyId topology, OperatorId operator, Map<String, JsonNode> values) {

    public ResultsView {
        values = values == null ? Map.of() : Map.copyOf(values);
    }
}
