package io.steadfast.router.topology;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.mapping.Document;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link DeployedTopology} as stored in the collection {@code topologies}. Spec and plan are kept as JSON text
 * (the plan's own Jackson form, which the runtime owns), the placement as a list because a task id is not a safe
 * field name, {@code deployedAt} as ISO-8601 text.
 *
 * @param id the topology id
 * @param spec the submitted JSON document
 * @param plan the execution plan as JSON
 * @param epoch the plan's epoch, for people reading the collection
 * @param placement the host and incarnation of every task, by task id
 * @param deployedAt when it was deployed
 * @param savedAt when this state was written
 */
@Document(MongoTopologyRepository.COLLECTION)
record StoredTopology(@Id TopologyId id, String spec, String plan, int epoch, List<Placement> placement,
                      String deployedAt, Date savedAt) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Where one task runs.
     *
     * @param incarnation the task's incarnation; absent (null) in records written before incarnations were kept
     */
    record Placement(TaskId task, HostId host, @Nullable Integer incarnation) {
    }

    static StoredTopology of(DeployedTopology topology, Instant savedAt) {
        List<Placement> placement = new ArrayList<>();
        topology.placement().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> placement.add(new Placement(e.getKey(), e.getValue(),
                        topology.incarnationOf(e.getKey()))));
        return new StoredTopology(topology.id(), JSON.writeValueAsString(topology.spec()),
                JSON.writeValueAsString(topology.plan()), topology.plan().epoch(), placement,
                topology.deployedAt().toString(), Date.from(savedAt));
    }

    DeployedTopology toTopology() {
        Map<TaskId, HostId> hosts = new LinkedHashMap<>();
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        for (Placement entry : placement) {
            hosts.put(entry.task(), entry.host());
            if (entry.incarnation() != null && entry.incarnation() > 0) {
                incarnations.put(entry.task(), entry.incarnation());
            }
        }
        return new DeployedTopology(id, JSON.readTree(spec), JSON.readValue(plan, ExecutionPlan.class), hosts,
                Instant.parse(deployedAt), incarnations);
    }
}
