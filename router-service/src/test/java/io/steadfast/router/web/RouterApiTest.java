package io.steadfast.router.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

@RouterApiContext
class RouterApiTest {

    private static final String PROBLEM = "application/problem+json";

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ManualClock clock;
    @Autowired
    private FakeHostClient hostClient;

    /**
     * Every test starts with nothing deployed and no LIVE host: earlier tests' topologies are cancelled, and their
     * hosts made DEAD by moving the clock.
     */
    @BeforeEach
    void forgetEarlierTopologiesAndHosts() throws Exception {
        new RouterCalls(mvc).cancelEveryTopology();
        clock.advance(Duration.ofHours(1));
        hostClient.reset();
    }

    private ResultActions submit(String json) throws Exception {
        return mvc.perform(post("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).content(json));
    }

    private void register(String host) throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9"}"""
                .formatted(host))).andExpect(status().isOk());
    }

    private static String wordCount(String id) {
        return """
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2, "config": {"count": 10}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 1, "inputs": [{"from": "count"}]}
                ]}""".formatted(id);
    }

    @Test
    void rejectsUnknownOperatorTypeListingTheKnownTypes() throws Exception {
        submit("""
                {"id": "t", "operators": [{"id": "source", "type": "genrator"}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors[0].operator").value("source"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[0].type"))
                .andExpect(jsonPath("$.errors[0].message", containsString("known types: ")))
                .andExpect(jsonPath("$.errors[0].message", containsString("generator")));
    }

    @Test
    void rejectsACycleNamingTheOperatorThatClosesIt() throws Exception {
        submit("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "a", "type": "keyed-count", "inputs": [{"from": "source"}, {"from": "b"}]},
                  {"id": "b", "type": "keyed-count", "inputs": [{"from": "a"}]},
                  {"id": "sink", "type": "log-sink", "inputs": [{"from": "b"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors[*].message", hasItem(containsString("closes a cycle"))))
                .andExpect(jsonPath("$.errors[*].operator", hasItem("a")));
    }

    @Test
    void rejectsAnInputThatNamesNoOperator() throws Exception {
        submit("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "sorce"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].operator").value("sink"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[1].inputs[0].from"))
                .andExpect(jsonPath("$.errors[0].message", containsString("'sorce' names no operator")));
    }

    @Test
    void rejectsAProcessorWithoutInputs() throws Exception {
        submit("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink"}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].operator").value("sink"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[1].inputs"));
    }

    @Test
    void rejectsParallelismOutOfRangeWithTheConfiguredLimit() throws Exception {
        submit("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 9},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 0, "inputs": [{"from": "source"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors", hasSize(2)))
                .andExpect(jsonPath("$.errors[0].operator").value("source"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[0].parallelism"))
                .andExpect(jsonPath("$.errors[0].message", containsString("1..8")))
                .andExpect(jsonPath("$.errors[1].field").value("operators[1].parallelism"));
    }

    @Test
    void rejectsANonPositiveCheckpointIntervalNamingTheField() throws Exception {
        submit("""
                {"id": "t", "checkpointing": {"intervalMs": 0}, "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors", hasSize(1)))
                .andExpect(jsonPath("$.errors[0].operator").value(nullValue()))
                .andExpect(jsonPath("$.errors[0].field").value("checkpointing.intervalMs"))
                .andExpect(jsonPath("$.errors[0].message", containsString("is not positive")));
    }

    @Test
    void rejectsABadOperatorConfigNamingTheField() throws Exception {
        submit("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator", "config": {"keys": 0}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].operator").value("source"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[0].config.keys"));
    }

    @Test
    void rejectsMalformedJson() throws Exception {
        submit("{\"id\": \"t\", \"operators\": [")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors[0].operator").value(nullValue()))
                .andExpect(jsonPath("$.errors[0].message", containsString("malformed JSON")));
    }

    @Test
    void rejectsAnUnknownFieldListingTheKnownOnes() throws Exception {
        submit("""
                {"id": "t", "operators": [{"id": "source", "type": "generator", "paralelism": 2}]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("operators[0].paralelism"))
                .andExpect(jsonPath("$.errors[0].message", containsString("known fields")));
    }

    @Test
    void rejectsASpecOverTheSizeLimitWith413() throws Exception {
        String padding = "x".repeat(5000);
        submit("{\"id\": \"" + padding + "\", \"operators\": []}")
                .andExpect(status().isContentTooLarge())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("max-spec-bytes")));
    }

    @Test
    void answers503WhenNoHostIsLive() throws Exception {
        submit(wordCount("no-hosts"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("No LIVE host")));
    }

    @Test
    void deploysOnEveryLiveHostAndAnswers409ForTheSameIdAgain() throws Exception {
        register("api-a");
        register("api-b");

        submit(wordCount("dup"))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "/api/v1/topologies/dup"))
                .andExpect(jsonPath("$.id").value("dup"))
                .andExpect(jsonPath("$.status").value("RUNNING"))
                .andExpect(jsonPath("$.tasks", hasSize(5)))
                .andExpect(jsonPath("$.tasks[*].host", hasItem("api-a")))
                .andExpect(jsonPath("$.tasks[*].host", hasItem("api-b")));
        org.assertj.core.api.Assertions.assertThat(hostClient.deployed).filteredOn(d -> d.startsWith("dup@"))
                .containsExactly("dup@api-a", "dup@api-b");

        submit(wordCount("dup"))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));

        mvc.perform(get("/api/v1/topologies/dup")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("RUNNING"))
                .andExpect(jsonPath("$.spec.id").value("dup"))
                .andExpect(jsonPath("$.tasks[0].status").value("PENDING"))
                .andExpect(jsonPath("$.operators[*].operator", hasItem("sink")));
        mvc.perform(get("/api/v1/topologies")).andExpect(jsonPath("$[?(@.id == 'dup')].tasks", hasItem(5)));
        mvc.perform(get("/api/v1/topologies/dup/plan")).andExpect(status().isOk())
                .andExpect(jsonPath("$.topology").value("dup"))
                .andExpect(jsonPath("$.tasks", hasSize(5)))
                .andExpect(jsonPath("$.tasks[*].id", hasItem("dup/sink#0")));
        mvc.perform(delete("/api/v1/topologies/dup")).andExpect(status().isNoContent());
        mvc.perform(get("/api/v1/topologies/dup/plan")).andExpect(status().isNotFound());
        org.assertj.core.api.Assertions.assertThat(hostClient.cancelled).filteredOn(c -> c.startsWith("dup@"))
                .containsExactly("dup@api-a", "dup@api-b");
    }

    @Test
    void cancelsOnHostsAlreadyDeployedAndAnswers502WhenAHostFails() throws Exception {
        register("fail-a");
        register("fail-b");
        hostClient.failing.add(new HostId("fail-b"));

        submit(wordCount("half"))
                .andExpect(status().isBadGateway())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("host fail-b failed")))
                .andExpect(jsonPath("$.host").value("fail-b"));

        // other tests' topologies may be recovered (and so cancelled) meanwhile: their hosts go DEAD on the test clock;
        // the failing host may have started part of it before it failed, so it is cancelled there too
        org.assertj.core.api.Assertions.assertThat(hostClient.cancelled).filteredOn(c -> c.startsWith("half@"))
                .containsExactly("half@fail-a", "half@fail-b");
        mvc.perform(get("/api/v1/topologies/half")).andExpect(status().isNotFound());
    }

    @Test
    void answers409WithTheHostsProblemWhenAHostRefusesAndLeavesNothingDeployed() throws Exception {
        register("full-a");
        register("full-b");
        hostClient.refusingDeployments.put(new HostId("full-b"), """
                {"status": 409, "title": "Host at capacity", "reason": "OVER_CAPACITY", "topology": "full",
                 "detail": "Host full-b cannot take topology 'full': 3 tasks would make 514 here, over its limit of 512                 (steadfast.host.limits.max-tasks)"}""");

        submit(wordCount("full"))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.reason").value("HOST_REFUSED"))
                .andExpect(jsonPath("$.host").value("full-b"))
                .andExpect(jsonPath("$.hostStatus").value(409))
                .andExpect(jsonPath("$.hostProblem.reason").value("OVER_CAPACITY"))
                .andExpect(jsonPath("$.detail", containsString("Topology 'full' was not deployed. Host full-b refused to"
                        + " deploy topology 'full': HTTP 409 Host full-b cannot take topology 'full'")))
                .andExpect(jsonPath("$.detail", containsString("over its limit of 512")))
                .andExpect(jsonPath("$.detail", containsString("It was cancelled on [full-a], which had accepted it.")));

        org.assertj.core.api.Assertions.assertThat(hostClient.deployed).filteredOn(d -> d.startsWith("full@"))
                .containsExactly("full@full-a");
        org.assertj.core.api.Assertions.assertThat(hostClient.cancelled).filteredOn(c -> c.startsWith("full@"))
                .containsExactly("full@full-a");
        mvc.perform(get("/api/v1/topologies/full")).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/topologies")).andExpect(jsonPath("$[?(@.id == 'full')]").isEmpty());
    }

    @Test
    void rejectsMoreChannelsThanTheConfiguredLimit() throws Exception {
        submit("""
                {"id": "wide", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 8},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 5, "inputs": [{"from": "source"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].operator").value("sink"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[1].inputs[0]"))
                .andExpect(jsonPath("$.errors[0].message", containsString("40 channels in all, over the limit of 32")));
    }

    @Test
    void mergesResultsOfEverySubtaskOfAnOperator() throws Exception {
        register("res-a");
        register("res-b");
        submit("""
                {"id": "res", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "source"}]}
                ]}""").andExpect(status().isCreated());
        hostClient.state.put(TaskId.parse("res/sink#0"), Map.of("key-0", 3));
        hostClient.state.put(TaskId.parse("res/sink#1"), Map.of("key-1", 4));

        mvc.perform(get("/api/v1/topologies/res/results/sink")).andExpect(status().isOk())
                .andExpect(jsonPath("$.topology").value("res"))
                .andExpect(jsonPath("$.values.key-0").value(3))
                .andExpect(jsonPath("$.values.key-1").value(4));
        mvc.perform(get("/api/v1/topologies/res/results/sink").param("key", "key-1"))
                .andExpect(jsonPath("$.key").value("key-1")).andExpect(jsonPath("$.value").value(4));
        mvc.perform(get("/api/v1/topologies/res/results/sink").param("key", "nope"))
                .andExpect(status().isNotFound()).andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/v1/topologies/res/results/nope"))
                .andExpect(status().isNotFound()).andExpect(jsonPath("$.detail", containsString("source, sink")));
    }

    @Test
    void answers404ForAnUnknownTopology() throws Exception {
        mvc.perform(get("/api/v1/topologies/unknown")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(delete("/api/v1/topologies/unknown")).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/topologies/unknown/results/sink")).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/topologies/unknown/plan")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
        mvc.perform(get("/api/v1/topologies/Not_Valid")).andExpect(status().isNotFound());
    }

    @Test
    void acceptsASuspicionBetweenRegisteredHostsAndAnswers404WhenEitherIsUnknown() throws Exception {
        register("sus-a");
        register("sus-b");

        mvc.perform(post("/api/v1/hosts/sus-a/suspicions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"reporter\": \"sus-b\"}")).andExpect(status().isAccepted());
        mvc.perform(post("/api/v1/hosts/ghost/suspicions").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"reporter\": \"sus-b\"}"))
                .andExpect(status().isNotFound()).andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("'ghost' is not registered")));
        mvc.perform(post("/api/v1/hosts/sus-a/suspicions").contentType(MediaType.APPLICATION_JSON)
                .content("{\"reporter\": \"nobody\"}")).andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'sus-a')].status", hasItem("LIVE")));
    }

    @Test
    void answersProblemsOfTheShapeEveryServiceSharesWithTheirReasonAndIds() throws Exception {
        mvc.perform(put("/api/v1/hosts/ghost/heartbeat").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tasks\": []}"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("urn:steadfast:problem:host-not-registered"))
                .andExpect(jsonPath("$.reason").value("HOST_NOT_REGISTERED"))
                .andExpect(jsonPath("$.host").value("ghost"));
        mvc.perform(get("/api/v1/topologies/unknown")).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("urn:steadfast:problem:not-found"))
                .andExpect(jsonPath("$.reason").value("NOT_FOUND"));
        mvc.perform(post("/api/v1/hosts/a/suspicions").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:steadfast:problem:invalid-request-body"))
                .andExpect(jsonPath("$.errors[0].field").value("reporter"))
                .andExpect(jsonPath("$.errors[0].message").isString());
    }

    @Test
    void answers404ToTheHeartbeatOfAnUnknownHost() throws Exception {
        mvc.perform(put("/api/v1/hosts/ghost/heartbeat").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tasks\": []}"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.detail", containsString("POST /api/v1/hosts")));
    }

    @Test
    void registeredHostIsLiveUntilItsHeartbeatsStopForTheTimeout() throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                        {"hostId": "beat", "controlUrl": "http://127.0.0.1:7", "dataEndpoint": "tcp://127.0.0.1:8"}"""))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.hostId").value("beat"))
                .andExpect(jsonPath("$.heartbeatInterval").value("PT0.25S"));
        clock.advance(Duration.ofMillis(900));
        mvc.perform(put("/api/v1/hosts/beat/heartbeat").contentType(MediaType.APPLICATION_JSON).content("""
                        {"tasks": [{"task": "t/sink#0", "type": "latest-value-sink", "status": "RUNNING",
                          "recordsIn": 5, "recordsOut": 0, "recordsInPerSecond": 2.5, "recordsOutPerSecond": 0,
                          "queuedFrames": 0, "malformedFrames": 0,
                          "backpressuredMillis": 0, "failure": null}]}"""))
                .andExpect(status().isOk());
        clock.advance(Duration.ofMillis(900));

        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'beat')].status", hasItem("LIVE")))
                .andExpect(jsonPath("$[?(@.hostId == 'beat')].controlUrl", hasItem("http://127.0.0.1:7")))
                .andExpect(jsonPath("$[?(@.hostId == 'beat')].lastHeartbeat", hasItem(matchesPattern("2026-01-01T\\d\\d:00:00\\.900Z"))))
                .andExpect(jsonPath("$[?(@.hostId == 'beat')].tasks[0].recordsIn", hasItem(5)))
                .andExpect(jsonPath("$[?(@.hostId == 'beat')].tasks[0].recordsInPerSecond", hasItem(2.5)));
        clock.advance(Duration.ofMillis(101));
        mvc.perform(get("/api/v1/hosts")).andExpect(jsonPath("$[?(@.hostId == 'beat')].status", hasItem("DEAD")));
    }

    @Test
    void reRegisteringReplacesTheUrls() throws Exception {
        register("again");
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                        {"hostId": "again", "controlUrl": "http://127.0.0.1:11", "dataEndpoint": "tcp://127.0.0.1:12"}"""))
                .andExpect(status().isOk());

        mvc.perform(get("/api/v1/hosts"))
                .andExpect(jsonPath("$[?(@.hostId == 'again')].dataEndpoint", hasItem("tcp://127.0.0.1:12")))
                .andExpect(jsonPath("$[?(@.hostId == 'again')]", hasSize(1)));
    }
}
