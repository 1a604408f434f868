package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * A host acks the snapshots its tasks took at one barrier in one request ({@code POST .../acks/batch}); the
 * checkpoint completes once every host's batch is in, and a malformed batch is refused naming the field.
 */
@CheckpointApiContext
@Timeout(60)
class CheckpointAckBatchTest {

    private static final TopologyId T = TopologyId.of("acked");

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ManualClock clock;
    @Autowired
    private FakeHostClient hosts;
    @Autowired
    private CheckpointCoordinators coordinators;
    @Autowired
    private TopologyRepository topologies;

    private ResultActions ackBatch(long checkpointId, String body) throws Exception {
        return mvc.perform(post("/api/v1/topologies/{id}/checkpoints/{cp}/acks/batch", T.value(), checkpointId)
                .contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private static String batchOf(HostId host, List<TaskId> tasks) {
        return """
                {"host": "%s", "acks": [%s]}""".formatted(host.value(), tasks.stream().map(task -> """
                {"task": "%s", "sizeBytes": 10, "syncMillis": 1, "asyncMillis": 2}""".formatted(task))
                .collect(Collectors.joining(", ")));
    }

    @Test
    void aCheckpointCompletesWithOneBatchOfAcksPerHost() throws Exception {
        RouterCalls router = new RouterCalls(mvc);
        FirstCheckpoint.triggeredFor(T, List.of("acked-a", "acked-b"), router, coordinators, clock, hosts);
        Map<HostId, List<TaskId>> byHost = topologies.find(T).orElseThrow().placement().entrySet().stream()
                .collect(Collectors.groupingBy(Map.Entry::getValue,
                        Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        List<HostId> placedOn = List.copyOf(byHost.keySet());

        ackBatch(1, batchOf(placedOn.get(0), byHost.get(placedOn.get(0)))).andExpect(status().isAccepted());
        router.checkpoints(T.value()).andExpect(jsonPath("$.latestCompleted").doesNotExist());
        assertThat(coordinators.lastCompleted(T)).as("one host's batch is not every task's ack").isEmpty();
        for (HostId host : placedOn.subList(1, placedOn.size())) {
            ackBatch(1, batchOf(host, byHost.get(host))).andExpect(status().isAccepted());
        }
        assertThat(coordinators.lastCompleted(T)).hasValueSatisfying(done ->
                assertThat(done.checkpointId()).isEqualTo(1));

        router.checkpoints(T.value()).andExpect(status().isOk())
                .andExpect(jsonPath("$.latestCompleted").value(1))
                .andExpect(jsonPath("$.checkpoints[0].status").value("COMPLETED"));
    }

    @Test
    void ignoresTheAcksOfAnotherIncarnationThanTheOneDeployedAndTakesThoseThatNameNoneAsTheFirst() throws Exception {
        TopologyId topology = TopologyId.of("incarnated");
        RouterCalls router = new RouterCalls(mvc);
        FirstCheckpoint.triggeredFor(topology, List.of("incarnated-a"), router, coordinators, clock, hosts);
        Map<TaskId, HostId> placement = topologies.find(topology).orElseThrow().placement();
        String acks = "/api/v1/topologies/{id}/checkpoints/{cp}/acks";

        for (Map.Entry<TaskId, HostId> task : placement.entrySet()) {
            mvc.perform(post(acks + "/batch", topology.value(), 1).contentType(MediaType.APPLICATION_JSON).content("""
                    {"host": "%s", "acks": [{"task": "%s", "incarnation": 1, "sizeBytes": 10, "syncMillis": 1,
                     "asyncMillis": 2}]}""".formatted(task.getValue().value(), task.getKey())))
                    .andExpect(status().isAccepted());
        }
        assertThat(coordinators.lastCompleted(topology)).as("acks of copies that never ran").isEmpty();
        for (Map.Entry<TaskId, HostId> task : placement.entrySet()) {
            mvc.perform(post(acks, topology.value(), 1).contentType(MediaType.APPLICATION_JSON).content("""
                    {"task": "%s", "host": "%s", "sizeBytes": 10, "syncMillis": 1, "asyncMillis": 2}"""
                    .formatted(task.getKey(), task.getValue().value()))).andExpect(status().isAccepted());
        }

        assertThat(coordinators.lastCompleted(topology)).hasValueSatisfying(done ->
                assertThat(done.checkpointId()).isEqualTo(1));
    }

    @Test
    void refusesABatchWithoutAcksOrWithAnAckWithoutItsTaskNamingTheField() throws Exception {
        ackBatch(1, """
                {"host": "acked-a", "acks": []}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("acks"))
                .andExpect(jsonPath("$.detail", containsString("acks")));
        String problem = ackBatch(1, """
                {"host": "acked-a", "acks": [{"task": "", "sizeBytes": 1, "syncMillis": 0, "asyncMillis": 0}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("acks[0].task"))
                .andExpect(jsonPath("$.detail", containsString("Correct these fields")))
                .andReturn().getResponse().getContentAsString();
        assertThat(problem).as("a problem detail naming the field").contains("\"status\":400")
                .contains("acks[0].task");
    }
}
