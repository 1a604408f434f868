package io.steadfast.host.web;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * A host with small limits ({@code steadfast.host.limits.*}) refuses a deployment beyond them with 409 and a problem
 * detail naming the topology, the counts and the limit, while the topology it runs keeps running; over its REST API,
 * real runtime and data plane.
 */
@SpringBootTest(properties = {"steadfast.host.id=small-host", "steadfast.host.limits.max-tasks=6",
        "steadfast.host.limits.max-channels=10"})
@AutoConfigureMockMvc
class HostCapacityApiTest {

    private static final String PROBLEM = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ProcessingNode node;

    @AfterEach
    void cancelEverything() throws Exception {
        for (String topology : new String[] {"steady", "too-many-tasks", "too-many-channels"}) {
            mvc.perform(delete("/api/v1/deployments/" + topology));
        }
    }

    /** A generator that never ends feeding a sink, every task placed here. */
    private String deployment(String topology, int sources, int sinks) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": %d,
                   "config": {"count": 0, "ratePerSecond": 200}},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": %d, "inputs": [{"from": "source"}]}
                ]}""".formatted(topology, sources, sinks)));
        Map<String, String> hosts = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id().toString(), "small-host");
        }
        return JSON.writeValueAsString(Map.of("plan", plan,
                "placement", Map.of("hosts", hosts, "endpoints", Map.of("small-host", node.dataEndpoint()))));
    }

    private ResultActions deploy(String body) throws Exception {
        return mvc.perform(post("/api/v1/deployments").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private long recordsOutOfSteady() {
        return node.taskReports().stream().filter(report -> report.task().startsWith("steady/source"))
                .mapToLong(TaskReport::recordsOut).sum();
    }

    @Test
    void refusesADeploymentBeyondItsTaskLimitWith409AndKeepsRunningWhatItRuns() throws Exception {
        deploy(deployment("steady", 1, 2)).andExpect(status().isCreated());

        deploy(deployment("too-many-tasks", 2, 2))
                .andExpect(status().isConflict())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.title").value("Host at capacity"))
                .andExpect(jsonPath("$.reason").value("OVER_CAPACITY"))
                .andExpect(jsonPath("$.topology").value("too-many-tasks"))
                .andExpect(jsonPath("$.errors", hasSize(1)))
                .andExpect(jsonPath("$.errors[0].field").value("tasks"))
                .andExpect(jsonPath("$.errors[0].message").value("4 tasks of topology 'too-many-tasks' would make 7"
                        + " on this host with the 3 it runs, over its limit of 6 (steadfast.host.limits.max-tasks)"))
                .andExpect(jsonPath("$.detail", allOf(containsString("Host small-host cannot take topology"
                        + " 'too-many-tasks'"), containsString("would make 7"))));

        mvc.perform(get("/api/v1/tasks")).andExpect(jsonPath("$[?(@.task =~ /too-many-tasks.*/)]").isEmpty());
        long before = recordsOutOfSteady();
        await().atMost(Duration.ofSeconds(20)).until(() -> recordsOutOfSteady() > before + 10);
        org.assertj.core.api.Assertions.assertThat(node.taskReports()).extracting(TaskReport::status)
                .containsOnly(TaskStatus.RUNNING);
    }

    @Test
    void refusesADeploymentBeyondItsChannelLimitWith409NamingTheCounts() throws Exception {
        deploy(deployment("steady", 1, 2)).andExpect(status().isCreated());

        deploy(deployment("too-many-channels", 3, 3))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.reason").value("OVER_CAPACITY"))
                .andExpect(jsonPath("$.errors[*].field").value(org.hamcrest.Matchers.contains("tasks", "channels")))
                .andExpect(jsonPath("$.errors[1].message", allOf(
                        containsString("9 channels of topology 'too-many-channels' would make 11 on this host with the"
                                + " 2 it runs, over its limit of 10 (steadfast.host.limits.max-channels)"),
                        containsString("of heap before any event flows"))));

        mvc.perform(get("/api/v1/tasks")).andExpect(jsonPath("$[?(@.task =~ /too-many-channels.*/)]").isEmpty());
        long before = recordsOutOfSteady();
        await().atMost(Duration.ofSeconds(20)).until(() -> recordsOutOfSteady() > before + 10);
    }
}
