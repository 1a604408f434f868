package io.steadfast.router.store;

import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Instant;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Deployed topologies for the store tests: a three-operator word count placed on two hosts. */
final class StoredTopologies {

    static final Instant DEPLOYED_AT = Instant.parse("2026-01-01T00:00:00Z");
    private static final String SPEC = """
            {"id": "t", "checkpointing": {"intervalMs": 1500, "maxConcurrent": 2}, "operators": [
              {"id": "source", "type": "generator", "config": {"count": 10}},
              {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
            ]}""";

    private StoredTopologies() {
    }

    static DeployedTopology topology(String id, int epoch) {
        String spec = SPEC.replace("\"t\"", "\"" + id + "\"");
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(spec)).withEpoch(epoch);
        HostId a = new HostId("host-1");
        HostId b = new HostId("host-2");
        return new DeployedTopology(TopologyId.of(id), JsonMapper.builder().build().readTree(spec), plan,
                Map.of(TaskId.parse(id + "/source#0"), a, TaskId.parse(id + "/count#0"), b,
                        TaskId.parse(id + "/count#1"), a, TaskId.parse(id + "/sink#0"), b), DEPLOYED_AT);
    }
}
