package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router's meters on {@code /actuator/prometheus}: a checkpoint completed through the hosts' acks is counted, timed
 * and sized; the registered hosts are counted by state and kind. And {@code /actuator/info}: what was built, from which
 * commit, on which JVM.
 */
@SpringBootTest(properties = {"steadfast.router.host-startup-grace=0s", "steadfast.router.heartbeat-timeout=1h",
        "steadfast.router.checkpoint.interval=1s", "steadfast.router.checkpoint.timeout=10s",
        "management.defaults.metrics.export.enabled=true"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@Timeout(60)
class RouterMetricsTest {

    private static final TopologyId T = TopologyId.of("metered");

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

    private String scrape() throws Exception {
        return mvc.perform(get("/actuator/prometheus")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
    }

    @Test
    void aCompletedCheckpointIsCountedTimedAndSizedAndTheHostsCountedByStateAndKind() throws Exception {
        RouterCalls router = new RouterCalls(mvc);
        router.register("metered-voter", HostKind.VOTER);
        FirstCheckpoint.triggeredFor(T, List.of("metered-a", "metered-b"), router, coordinators, clock, hosts);
        assertThat(scrape()).contains("steadfast_checkpoints_total{outcome=\"COMPLETED\",reason=\"none\"} 0.0")
                .contains("steadfast_checkpoints_total{outcome=\"FAILED\",reason=\"TIMEOUT\"} 0.0")
                .contains("steadfast_hosts{kind=\"PE\",state=\"LIVE\"} 2.0")
                .contains("steadfast_hosts{kind=\"VOTER\",state=\"LIVE\"} 1.0")
                .contains("steadfast_hosts{kind=\"PE\",state=\"DEAD\"} 0.0")
                .contains("steadfast_recoveries_total{mode=\"LOCAL\",outcome=\"RECOVERED\"} 0.0");

        Map<TaskId, HostId> placement = topologies.find(T).orElseThrow().placement();
        for (Map.Entry<TaskId, HostId> task : placement.entrySet()) {
            mvc.perform(post("/api/v1/topologies/{id}/checkpoints/{cp}/acks", T.value(), 1)
                    .contentType(MediaType.APPLICATION_JSON).content("""
                            {"task": "%s", "host": "%s", "sizeBytes": 1000, "syncMillis": 1, "asyncMillis": 2}"""
                            .formatted(task.getKey(), task.getValue().value()))).andExpect(status().isAccepted());
        }
        assertThat(coordinators.lastCompleted(T)).isPresent();

        assertThat(scrape()).contains("steadfast_checkpoints_total{outcome=\"COMPLETED\",reason=\"none\"} 1.0")
                .contains("steadfast_checkpoint_duration_seconds_count 1")
                .contains("steadfast_checkpoint_duration_seconds_bucket{le=\"+Inf\"} 1")
                .contains("steadfast_checkpoint_size_bytes_count 1")
                .contains("steadfast_checkpoint_size_bytes_sum " + (1000.0 * placement.size()));
    }

    @Test
    void infoNamesTheBuildItsCommitAndTheJvm() throws Exception {
        String info = mvc.perform(get("/actuator/info")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        JsonNode body = JsonMapper.builder().build().readTree(info);

        assertThat(body.at("/build/artifact").asString()).isEqualTo("router-service");
        assertThat(body.at("/build/version").asString()).isNotBlank();
        assertThat(body.at("/build/time").asString()).isNotBlank();
        assertThat(body.at("/java/version").asString()).isEqualTo(System.getProperty("java.version"));
        assertThat(body.at("/process/pid").asLong()).isEqualTo(ProcessHandle.current().pid());
        if (new ClassPathResource("git.properties").exists()) { // built from a clone, not a source archive
            assertThat(body.at("/git/commit/id").asString()).matches("[0-9a-f]{7,40}");
        }
    }
}
