package io.steadfast.protocol.router;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * An operator's keyed state merged over its tasks, {@code GET /api/v1/topologies/{id}/results/{operator}}: by
 * default the latest value per key of a {@code latest-value-sink}. (With {@code ?key=} the router answers one
 * {@link io.steadfast.protocol.host.KeyValue} instead.)
 *
 * @param topology the topology id
 * @param operator the operator id
 * @param values   value by key, sorted by key; each value as the task's state holds it in JSON
 */
public record OperatorResults(TopologyId topology, OperatorId operator, Map<String, JsonNode> values) {

    public OperatorResults {
        values = values == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(values));
    }
}
