package io.steadfast.router.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.MutableClock;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * A host the router declared DEAD (paused, partitioned, or in a long GC) comes back while its old tasks still
 * run: its heartbeat answer no longer places them there, so the host cancels them; and the host is LIVE again
 * and takes new work. The router's real detector, recovery and placement run on the test's clock; hosts are
 * played by MockMvc requests and the fake host client.
 */
@SpringBootTest(properties = {"steadfast.router.heartbeat-timeout=800ms", "steadfast.router.host-startup-grace=0s",
        "steadfast.router.checkpoint.interval=1h"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@Timeout(60)
class ReturningHostTest {

    private static final HostId A = new HostId("host-a");
    private static final HostId B = new HostId("host-b");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private MockMvc mvc;
    @Autowired
    private MutableClock clock;
    @Autowired
    private FakeHostClient hostClient;
    @Autowired
    private TopologyRepository topologies;

    private void register(HostId host) throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9"}"""
                .formatted(host.value()))).andExpect(status().isOk());
    }

    private ResultActions heartbeat(HostId host, String deploymentsJson) throws Exception {
        return mvc.perform(put("/api/v1/hosts/{id}/heartbeat", host.value()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"tasks\": [], \"deployments\": " + deploymentsJson + "}")).andExpect(status().isOk());
    }

    private void submit(String id) throws Exception {
        mvc.perform(post("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).content("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2, "config": {"count": 10}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(id))).andExpect(status().isCreated());
    }

    @Test
    void aHostDeclaredDeadThatHeartbeatsAgainIsToldToDropTheMovedTasksAndTakesNewWork() throws Exception {
        register(A);
        register(B);
        submit("moved");
        TopologyId moved = TopologyId.of("moved");
        List<String> tasksOnB = topologies.find(moved).orElseThrow().placement().entrySet().stream()
                .filter(entry -> entry.getValue().equals(B)).map(entry -> entry.getKey().toString()).sorted().toList();
        String runningOnB = JSON.writeValueAsString(List.of(Map.of("topology", "moved", "epoch", 0,
                "tasks", tasksOnB)));
        heartbeat(B, runningOnB)
                .andExpect(jsonPath("$.deployments[0].topology").value("moved"))
                .andExpect(jsonPath("$.deployments[0].epoch").value(0))
                .andExpect(jsonPath("$.deployments[0].tasks", not(empty())));

        // B goes silent (SIGSTOP, GC, partition) while A keeps beating: B is declared DEAD and recovered away
        clock.advance(Duration.ofMillis(500));
        heartbeat(A, "[]");
        clock.advance(Duration.ofMillis(400));
        await().atMost(Duration.ofSeconds(20)).until(() -> topologies.find(moved).orElseThrow().plan().epoch() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> hostClient.deployments.contains("moved@host-a:1:-"));

        // B comes back still running its epoch-0 tasks: the answer keeps 'moved' at epoch 1 with no task there
        heartbeat(B, runningOnB)
                .andExpect(jsonPath("$.deployments[0].topology").value("moved"))
                .andExpect(jsonPath("$.deployments[0].epoch").value(1))
                .andExpect(jsonPath("$.deployments[0].tasks", empty()));
        heartbeat(A, "[]").andExpect(jsonPath("$.deployments[0].epoch").value(1))
                .andExpect(jsonPath("$.deployments[0].tasks", not(empty())));
        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'host-b')].status", hasItem("LIVE")));

        // and it is used again for new work
        submit("after");
        await().atMost(Duration.ofSeconds(5)).until(() -> hostClient.deployed.contains("after@host-b"));
        heartbeat(B, "[]").andExpect(jsonPath("$.deployments[?(@.topology == 'after')].tasks", hasItem(not(empty()))));
    }
}
