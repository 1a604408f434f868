package io.steadfast.host.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.protocol.router.RouterHeaders;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/** The host's REST API over its real runtime and data plane (MockMvc, so no web server and no registration). */
@SpringBootTest(properties = "steadfast.host.id=test-host")
@AutoConfigureMockMvc
class HostApiTest {

    private static final String PROBLEM = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ProcessingNode node;

    /** A plan expanded without validation (the host must catch what the router would have), placed here. */
    private String deployment(String topologyJson) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(topologyJson));
        Map<String, String> hosts = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id().toString(), "test-host");
        }
        return JSON.writeValueAsString(Map.of("plan", plan,
                "placement", Map.of("hosts", hosts, "endpoints", Map.of("test-host", node.dataEndpoint()))));
    }

    private ResultActions deploy(String body) throws Exception {
        return mvc.perform(post("/api/v1/deployments").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private static String counts(String id, String sourceConfig) {
        return """
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": %s},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(id, sourceConfig);
    }

    @Test
    void deploysTheTasksPlacedHereAndRefusesTheSameTopologyTwice() throws Exception {
        String body = deployment(counts("twice", "{\"count\": 10}"));

        deploy(body).andExpect(status().isCreated())
                .andExpect(jsonPath("$.topology").value("twice"))
                .andExpect(jsonPath("$.tasks[0]").value("twice/source#0"))
                .andExpect(jsonPath("$.tasks.length()").value(4));
        deploy(body).andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("already deployed")));

        mvc.perform(delete("/api/v1/deployments/twice")).andExpect(status().isNoContent());
        mvc.perform(get("/api/v1/tasks")).andExpect(jsonPath("$[?(@.task == 'twice/sink#0')]").isEmpty());
    }

    @Test
    void rejectsAnUnknownTypeNamingTheOperatorAndField() throws Exception {
        deploy(deployment("""
                {"id": "unknown-type", "operators": [{"id": "source", "type": "no-such-type"}]}"""))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors[0].operator").value("source"))
                .andExpect(jsonPath("$.errors[0].field").value("type"))
                .andExpect(jsonPath("$.errors[0].message", containsString("generator")));
        mvc.perform(get("/api/v1/tasks")).andExpect(jsonPath("$[?(@.task =~ /unknown-type.*/)]").isEmpty());
    }

    @Test
    void anUnreadableBodyNamesTheFieldAndWhatIsWrongWithIt() throws Exception {
        mvc.perform(post("/api/v1/deployments/w/redirects").contentType(MediaType.APPLICATION_JSON).content("""
                        {"endpoints": {"w/count#0": "tcp://127.0.0.1:1"}, "incarnations": {"w/count#0": "two"}}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.reason").value("UNREADABLE_BODY"))
                .andExpect(jsonPath("$.field").value("incarnations['w/count#0']"))
                .andExpect(jsonPath("$.errors[0].field").value("incarnations['w/count#0']"))
                .andExpect(jsonPath("$.detail", containsString("two")));
    }

    @Test
    void rejectsAnInvalidConfigNamingTheOperatorAndField() throws Exception {
        deploy(deployment(counts("bad-config", "{\"keys\": 0}")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].operator").value("source"))
                .andExpect(jsonPath("$.errors[0].field").value("config.keys"));
    }

    @Test
    void servesKeyedStateByPathAndByParameters() throws Exception {
        deploy(deployment(counts("state", "{\"count\": 100, \"keys\": 10}"))).andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(30)).until(() -> node.taskReports().stream()
                .filter(r -> r.task().startsWith("state/")).allMatch(r -> r.status().name().equals("FINISHED")));

        ResultActions sink0 = mvc.perform(get("/api/v1/state").param("task", "state/sink#0").param("state", "latest"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.task").value("state/sink#0"))
                .andExpect(jsonPath("$.state").value("latest"));
        ResultActions sink1 = mvc.perform(get(URI.create("/api/v1/tasks/state%2Fsink%231/state/latest")))
                .andExpect(status().isOk());
        Map<?, ?> values0 = JSON.readValue(sink0.andReturn().getResponse().getContentAsString(), Map.class);
        Map<?, ?> values1 = JSON.readValue(sink1.andReturn().getResponse().getContentAsString(), Map.class);
        Map<Object, Object> all = new LinkedHashMap<>((Map<?, ?>) values0.get("values"));
        all.putAll((Map<?, ?>) values1.get("values"));
        org.assertj.core.api.Assertions.assertThat(all).hasSize(10).allSatisfy((key, value) ->
                org.assertj.core.api.Assertions.assertThat(((Number) value).longValue()).isEqualTo(10L));

        String holder = ((Map<?, ?>) values0.get("values")).containsKey("key-3") ? "state/sink#0" : "state/sink#1";
        mvc.perform(get(URI.create("/api/v1/tasks/" + holder.replace("/", "%2F").replace("#", "%23")
                        + "/state/latest?key=key-3")))
                .andExpect(status().isOk()).andExpect(jsonPath("$.key").value("key-3"))
                .andExpect(jsonPath("$.value").value(10));
        mvc.perform(get("/api/v1/state").param("task", holder).param("key", "key-99"))
                .andExpect(status().isNotFound()).andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/v1/state").param("task", "state/nope#0"))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.detail", containsString("test-host")));
        mvc.perform(get("/api/v1/state").param("task", "not-a-task-id"))
                .andExpect(status().isBadRequest());
        mvc.perform(get("/api/v1/tasks")).andExpect(jsonPath("$[*].task", hasItem("state/count#0")))
                .andExpect(jsonPath("$[?(@.task == 'state/source#0')].recordsOut", hasItem(100)));
        mvc.perform(delete("/api/v1/deployments/state")).andExpect(status().isNoContent());
    }

    @Test
    void reportsDataPlaneAndTaskHealth() throws Exception {
        mvc.perform(get("/actuator/health/dataPlane")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.details.endpoint").value(node.dataEndpoint()));
        mvc.perform(get("/actuator/health/tasks")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));
        mvc.perform(get("/actuator/health/liveness")).andExpect(status().isOk());
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk());
    }

    @Test
    void refusesCallsOfARouterEpochBelowTheHighestSeen() throws Exception {
        String body = deployment(counts("epochs", "{\"count\": 10}"));
        mvc.perform(delete("/api/v1/deployments/epochs").header(RouterHeaders.EPOCH, "7"))
                .andExpect(status().isNoContent()); // nothing deployed yet: the epoch is taken all the same

        mvc.perform(post("/api/v1/deployments").header(RouterHeaders.EPOCH, "6")
                        .contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.reason").value(RouterHeaders.STALE_ROUTER))
                .andExpect(jsonPath("$.highestEpoch").value(7));
        mvc.perform(post("/api/v1/deployments").header(RouterHeaders.EPOCH, "7")
                        .contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isCreated());
        mvc.perform(delete("/api/v1/deployments/epochs")).andExpect(status().isNoContent());
    }
}
