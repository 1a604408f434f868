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
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
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
 * run: its session is over, so its heartbeat is refused (410) and it must stop them; registered again with a new
 * session it is LIVE, runs nothing of the moved topology, and takes new work. The router's real detector, recovery and placement run on the test's clock; hosts are
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
    private ManualClock clock;
    @Autowired
    private FakeHostClient hostClient;
    @Autowired
    private TopologyRepository topologies;

    private ResultActions register(HostId host, String session) throws Exception {
        return mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9",
                 "session": "%s"}""".formatted(host.value(), session)));
    }

    private ResultActions beat(HostId host, String session, String deploymentsJson) throws Exception {
        return mvc.perform(put("/api/v1/hosts/{id}/heartbeat", host.value()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"tasks\": [], \"session\": \"" + session + "\", \"deployments\": " + deploymentsJson
                        + "}"));
    }

    private ResultActions heartbeat(HostId host, String session, String deploymentsJson) throws Exception {
        return beat(host, session, deploymentsJson).andExpect(status().isOk());
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
    void aHostDeclaredDeadThatHeartbeatsAgainIsFencedAndRejoinsEmptyWithANewSession() throws Exception {
        register(A, "a1").andExpect(status().isOk()).andExpect(jsonPath("$.lease").value("PT0.6S"));
        register(B, "b1").andExpect(status().isOk());
        submit("moved");
        TopologyId moved = TopologyId.of("moved");
        List<String> tasksOnB = topologies.find(moved).orElseThrow().placement().entrySet().stream()
                .filter(entry -> entry.getValue().equals(B)).map(entry -> entry.getKey().toString()).sorted().toList();
        String runningOnB = JSON.writeValueAsString(List.of(Map.of("topology", "moved", "epoch", 0,
                "tasks", tasksOnB)));
        heartbeat(B, "b1", runningOnB)
                .andExpect(jsonPath("$.deployments[0].topology").value("moved"))
                .andExpect(jsonPath("$.deployments[0].epoch").value(0))
                .andExpect(jsonPath("$.deployments[0].tasks", not(empty())));

        // B goes silent (SIGSTOP, GC, partition) while A keeps beating: B is declared DEAD and recovered away
        clock.advance(Duration.ofMillis(500));
        heartbeat(A, "a1", "[]");
        clock.advance(Duration.ofMillis(400));
        await().atMost(Duration.ofSeconds(20)).until(() -> topologies.find(moved).orElseThrow().plan().epoch() == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> hostClient.deployments.contains("moved@host-a:1:-"));

        // B comes back still running its epoch-0 tasks: its session is over, so it must stop them all
        beat(B, "b1", runningOnB).andExpect(status().isGone())
                .andExpect(jsonPath("$.reason").value("HOST_FENCED"))
                .andExpect(jsonPath("$.host").value("host-b"));
        register(B, "b1").andExpect(status().isGone());
        heartbeat(A, "a1", "[]").andExpect(jsonPath("$.deployments[0].epoch").value(1))
                .andExpect(jsonPath("$.deployments[0].tasks", not(empty())));
        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'host-b')].status", hasItem("DEAD")));

        // having stopped them, it registers with a new session and is LIVE again, running nothing of 'moved'
        register(B, "b2").andExpect(status().isOk());
        heartbeat(B, "b2", "[]")
                .andExpect(jsonPath("$.deployments[0].topology").value("moved"))
                .andExpect(jsonPath("$.deployments[0].epoch").value(1))
                .andExpect(jsonPath("$.deployments[0].tasks", empty()));
        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'host-b')].status", hasItem("LIVE")));

        // and it is used again for new work
        submit("after");
        await().atMost(Duration.ofSeconds(5)).until(() -> hostClient.deployed.contains("after@host-b"));
        heartbeat(B, "b2", "[]").andExpect(jsonPath("$.deployments[?(@.topology == 'after')].tasks",
                hasItem(not(empty()))));
    }
}
