package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.protocol.router.TopologySubmitted.PlacedTask;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.json.JsonMapper;

/**
 * Voter hosts through the router's API: they register with their kind, are listed with it, and are where the vote
 * tasks of an N-version topology go, which the router refuses while no voter is LIVE.
 */
@RouterApiContext
class VoterHostsApiTest {

    private static final String PROBLEM = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** An N-version operator of three versions, two subtasks each, between a source and a sink. */
    private static final String N_VERSION = """
            {"id": "%s", "operators": [
              {"id": "source", "type": "generator", "config": {"count": 10}},
              {"id": "score", "parallelism": 2, "inputs": [{"from": "source"}],
               "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}, {"type": "keyed-count"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
            ]}""";

    private final MockMvc mvc;
    private final FakeHostClient hostClient;
    private final RouterCalls router;

    VoterHostsApiTest(@Autowired MockMvc mvc, @Autowired FakeHostClient hostClient) {
        this.mvc = mvc;
        this.hostClient = hostClient;
        this.router = new RouterCalls(mvc);
    }

    /**
     * Every test starts with nothing deployed and no LIVE host: earlier tests' topologies are cancelled, and their
     * hosts time out.
     */
    @BeforeEach
    void forgetEarlierTopologiesAndHosts(@Autowired ManualClock clock) throws Exception {
        router.cancelEveryTopology();
        clock.advance(Duration.ofHours(1));
        hostClient.reset();
    }

    @Test
    void listsEveryHostWithItsKindAndAHostThatNamesNoneAsAPeHost() throws Exception {
        router.register("kinds-pe");
        router.register("kinds-voter", HostKind.VOTER);

        mvc.perform(get("/api/v1/hosts"))
                .andExpect(jsonPath("$[?(@.hostId == 'kinds-pe')].kind", hasItem("PE")))
                .andExpect(jsonPath("$[?(@.hostId == 'kinds-voter')].kind", hasItem("VOTER")));
    }

    @Test
    void refusesAnUnknownKindNamingTheField() throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                        {"hostId": "odd", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9",
                         "kind": "ROBOT"}"""))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.errors[0].field").value("kind"));
    }

    @Test
    void refusesAnNVersionTopologyWhileNoVoterIsLiveSayingToStartOne() throws Exception {
        router.register("novoter-a");
        router.register("novoter-b");

        router.submit(N_VERSION.formatted("no-voter"))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.reason").value("NO_LIVE_VOTER"))
                .andExpect(jsonPath("$.detail", containsString("[score]")))
                .andExpect(jsonPath("$.detail", containsString("start a voter-service")));
        mvc.perform(get("/api/v1/topologies/no-voter")).andExpect(status().isNotFound());
        // Only this topology's deployments count: a recovery of an earlier test's topology, whose hosts the clock
        // just outlived, may still be redeploying it on the hosts of another test.
        assertThat(hostClient.deployed).as("nothing of no-voter deployed anywhere")
                .noneMatch(deployment -> deployment.startsWith("no-voter@"));
    }

    @Test
    void placesTheVoteTasksOnTheVoterAndTheVersionsOfASubtaskOnDistinctPeHosts() throws Exception {
        for (String host : new String[] {"apart-a", "apart-b", "apart-c"}) {
            router.register(host);
        }
        router.register("apart-voter", HostKind.VOTER);

        TopologySubmitted submitted = JSON.readValue(router.submit(N_VERSION.formatted("apart"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString(),
                TopologySubmitted.class);

        assertThat(submitted.tasks()).filteredOn(placed -> placed.task().operator().value().equals("score"))
                .extracting(PlacedTask::host).hasSize(2).containsOnly(new HostId("apart-voter"));
        assertThat(submitted.tasks()).filteredOn(placed -> !placed.task().operator().value().equals("score"))
                .extracting(placed -> placed.host().value()).doesNotContain("apart-voter");
        for (int subtask = 0; subtask < 2; subtask++) {
            int i = subtask;
            assertThat(submitted.tasks()).filteredOn(placed -> placed.task().operator().isVersion()
                    && placed.task().subtask() == i).extracting(PlacedTask::host).as("versions of score#%d", i)
                    .hasSize(3).doesNotHaveDuplicates();
        }
        assertThat(submitted.warnings()).isEmpty();
        assertThat(hostClient.deployed).contains("apart@apart-voter");
    }

    @Test
    void warnsInTheAnswerAndTheDetailWhenVersionsMustShareAHost() throws Exception {
        router.register("few-a");
        router.register("few-b");
        router.register("few-voter", HostKind.VOTER);

        router.submit(N_VERSION.formatted("few"))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.warnings", hasSize(2)))
                .andExpect(jsonPath("$.warnings[0]", containsString("of score#0 share host")));
        mvc.perform(get("/api/v1/topologies/few"))
                .andExpect(jsonPath("$.warnings", hasSize(2)))
                .andExpect(jsonPath("$.warnings[1]", containsString("of score#1 share host")));
    }

    @Test
    void sumsTheVersionsRecordsOfEveryVoteTaskAndNamesAVoteTaskWhoseHostFails() throws Exception {
        router.register("votes-a");
        router.register("votes-b");
        router.register("votes-c");
        router.register("votes-voter", HostKind.VOTER);
        router.submit(N_VERSION.formatted("votes")).andExpect(status().isCreated());
        // [agreed, outvoted, late, excludedSince, streak, current, currentBad, previousBad] per version
        hostClient.putTaskState(TaskId.parse("votes/score#0"), "versions", List.of(
                List.of(10L, 0L, 0L, -1L, 0L, 10L, 0L, -1L),
                List.of(7L, 3L, 0L, 1_700_000_000_000L, 2L, 10L, 3L, -1L),
                List.of(9L, 0L, 1L, -1L, 0L, 10L, 1L, -1L)));
        hostClient.putTaskState(TaskId.parse("votes/score#1"), "versions", List.of(
                List.of(5L, 0L, 0L, -1L, 0L, 5L, 0L, -1L),
                List.of(4L, 1L, 0L, -1L, 0L, 5L, 1L, -1L),
                List.of(5L, 0L, 0L, -1L, 0L, 5L, 0L, -1L)));

        mvc.perform(get("/api/v1/topologies/votes/votes")).andExpect(status().isOk())
                .andExpect(jsonPath("$.operators[0].operator").value("score"))
                .andExpect(jsonPath("$.operators[0].strategy").value("majority"))
                .andExpect(jsonPath("$.operators[0].unavailable", hasSize(0)))
                .andExpect(jsonPath("$.operators[0].versions[0].agreed").value(15))
                .andExpect(jsonPath("$.operators[0].versions[0].type").value("keyed-count"))
                .andExpect(jsonPath("$.operators[0].versions[1].operator").value("score~v1"))
                .andExpect(jsonPath("$.operators[0].versions[1].agreed").value(11))
                .andExpect(jsonPath("$.operators[0].versions[1].outvoted").value(4))
                .andExpect(jsonPath("$.operators[0].versions[1].excludedSince").value("2023-11-14T22:13:20Z"))
                .andExpect(jsonPath("$.operators[0].versions[2].late").value(1))
                .andExpect(jsonPath("$.operators[0].versions[2].failed").value(0));

        hostClient.failing.add(new HostId("votes-voter"));
        mvc.perform(get("/api/v1/topologies/votes/votes")).andExpect(status().isOk())
                .andExpect(jsonPath("$.operators[0].unavailable", hasSize(2)))
                .andExpect(jsonPath("$.operators[0].versions[0].agreed").value(0));
        mvc.perform(get("/api/v1/topologies/nope/votes")).andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM));
    }
}
