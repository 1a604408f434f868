package io.steadfast.router.web;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.RouterTestBeans;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The router with its default limits refuses, before planning anything, two topologies that would harm it: about a
 * kilobyte of JSON asking for a million channels, and a keyed count fed round-robin.
 */
@SpringBootTest(properties = {"steadfast.router.host-startup-grace=0s", "steadfast.router.heartbeat-timeout=1h",
        "steadfast.router.checkpoint.interval=1s", "steadfast.router.checkpoint.timeout=10s"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
class TopologySubmissionRulesTest {

    private static final String PROBLEM = "application/problem+json";

    @Autowired
    private MockMvc mvc;

    private ResultActions submit(String json) throws Exception {
        return mvc.perform(post("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).content(json));
    }

    @Test
    void rejectsAMillionChannelTopologyNamingTheInputTheChannelsAndTheLimit() throws Exception {
        submit("""
                {"id": "million", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 1024, "config": {"keys": 1000000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 1024,
                   "inputs": [{"from": "source", "partitioning": "key"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count", "partitioning": "key"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.title").value("Invalid topology"))
                .andExpect(jsonPath("$.topology").value("million"))
                .andExpect(jsonPath("$.errors", hasSize(1)))
                .andExpect(jsonPath("$.errors[0].operator").value("count"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[1].inputs[0]"))
                .andExpect(jsonPath("$.errors[0].message", allOf(
                        containsString("inputs[0] from 'source' makes 1048576 channels"),
                        containsString("1049600 channels in all, over the limit of 65536 (maxChannels)"),
                        containsString("Lower the parallelism of 'source' or 'count'"))))
                .andExpect(jsonPath("$.detail", containsString("operators[1] 'count': inputs[0] from 'source'")));
        mvc.perform(get("/api/v1/topologies/million")).andExpect(status().isNotFound());
    }

    @Test
    void rejectsAKeyedCountFedRoundRobinNamingTheInputAndWhatToUse() throws Exception {
        submit("""
                {"id": "split-keys", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2},
                  {"id": "count", "type": "keyed-count", "parallelism": 2,
                   "inputs": [{"from": "source", "partitioning": "round-robin"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count", "partitioning": "broadcast"}]}
                ]}""")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.topology").value("split-keys"))
                .andExpect(jsonPath("$.errors", hasSize(2)))
                .andExpect(jsonPath("$.errors[0].operator").value("count"))
                .andExpect(jsonPath("$.errors[0].field").value("operators[1].inputs[0].partitioning"))
                .andExpect(jsonPath("$.errors[0].message", allOf(containsString("'round-robin' (from 'source')"),
                        containsString("type 'keyed-count' keeps its state per key"),
                        containsString("use \"partitioning\": \"key\""))))
                .andExpect(jsonPath("$.errors[1].operator").value("sink"))
                .andExpect(jsonPath("$.errors[1].field").value("operators[2].inputs[0].partitioning"))
                .andExpect(jsonPath("$.errors[1].message", containsString("'broadcast' (from 'count')")));
        mvc.perform(get("/api/v1/topologies/split-keys")).andExpect(status().isNotFound());
    }
}
