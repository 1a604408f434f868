package io.steadfast.router.topology;

import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.TopologyException.Reason;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an operator's keyed state (by default the {@code latest} state of a {@code latest-value-sink}) from
 * every subtask on its host and merges it. Thread-safe, read only.
 */
public final class ResultReader {

    /** Turns the values the hosts answered (read as plain Java maps, lists and scalars) back into JSON. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector failureDetector;
    private final HostClient hostClient;

    public ResultReader(TopologyRepository topologies, HeartbeatFailureDetector failureDetector, HostClient hostClient) {
        this.topologies = topologies;
        this.failureDetector = failureDetector;
        this.hostClient = hostClient;
    }

    /**
     * Up to {@code limit} keys' values, sorted by key, over all subtasks of the operator.
     *
     * @throws TopologyException if the topology or operator is unknown, or a host fails
     */
    public Map<String, JsonNode> readAll(TopologyId topology, OperatorId operator, String state, int limit) {
        Map<String, Object> merged = new TreeMap<>();
        for (TaskSpec task : tasksOf(topology, operator)) {
            merged.putAll(call(task.id(), host -> hostClient.queryAll(host, task.id(), state, limit), topology));
        }
        Map<String, JsonNode> values = new TreeMap<>();
        merged.entrySet().stream().limit(limit).forEach(entry -> values.put(entry.getKey(),
                JSON.valueToTree(entry.getValue())));
        return values;
    }

    /**
     * One key's value, from whichever subtask holds it.
     *
     * @throws TopologyException NOT_FOUND if no subtask has a value for the key
     */
    public Object readKey(TopologyId topology, OperatorId operator, String state, String key) {
        for (TaskSpec task : tasksOf(topology, operator)) {
            Optional<Object> value = call(task.id(), host -> hostClient.queryKey(host, task.id(), state, key), topology);
            if (value.isPresent()) {
                return value.get();
            }
        }
        throw new TopologyException(Reason.NOT_FOUND, "Key '" + key + "' has no value in state '" + state
                + "' of operator '" + operator + "' of topology '" + topology + "'");
    }

    private List<TaskSpec> tasksOf(TopologyId topology, OperatorId operator) {
        DeployedTopology deployed = topologies.find(topology).orElseThrow(() -> TopologyDeployer.notFound(topology));
        List<TaskSpec> tasks = deployed.plan().tasksOf(operator);
        if (tasks.isEmpty()) {
            String known = deployed.plan().tasks().stream().map(t -> t.id().operator().value()).distinct()
                    .collect(Collectors.joining(", "));
            throw new TopologyException(Reason.NOT_FOUND, "Topology '" + topology + "' has no operator '" + operator
                    + "'; its operators: " + known);
        }
        return tasks;
    }

    private <T> T call(TaskId task, Function<RegisteredHost, T> query, TopologyId topology) {
        HostId hostId = topologies.find(topology).orElseThrow(() -> TopologyDeployer.notFound(topology))
                .placement().get(task);
        RegisteredHost host = failureDetector.host(hostId).orElseThrow(() -> new TopologyException(Reason.HOST_FAILED,
                "Host " + hostId + " of task " + task + " is no longer registered; its results are unavailable"));
        try {
            return query.apply(host);
        } catch (HostCallException e) {
            throw new TopologyException(Reason.HOST_FAILED, "Reading results of task " + task + " failed: "
                    + e.getMessage(), e);
        }
    }
}
