package io.steadfast.host.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.snapshot.InMemoryCheckpointing;
import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.host.snapshot.RecordingReporter;
import io.steadfast.host.snapshot.ResilientSnapshotStore;
import io.steadfast.host.snapshot.CheckpointReporter;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
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
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checkpoints through the host's REST API over its real runtime, with an in-memory snapshot store and a
 * recording reporter in place of the checkpoint-service and the router.
 */
@SpringBootTest(properties = {"steadfast.host.id=cp-host", "steadfast.host.snapshots.circuit-open-for=300ms"})
@AutoConfigureMockMvc
@ContextConfiguration(initializers = InMemoryCheckpointing.Store.class)
@Import(InMemoryCheckpointing.Reporting.class)
class CheckpointApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ProcessingNode node;
    @Autowired
    private InMemorySnapshotStore store;
    @Autowired
    private RecordingReporter reporter;
    @Autowired
    private ResilientSnapshotStore resilientStore;

    /**
     * The store back, and its circuit breaker past the open state a test with the store down left it in (it refuses
     * calls for 300 ms), so that the next test's first checkpoint is not refused.
     */
    @AfterEach
    void cleanUp() throws Exception {
        store.setAvailable(true);
        for (String id : new String[] {"cp", "slow", "restored", "missing"}) {
            mvc.perform(delete("/api/v1/deployments/" + id));
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> resilientStore.circuitState() != CircuitBreaker.State.OPEN);
    }

    private String deployment(String id, String sourceConfig, Long restoreFrom) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": %s},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(id, sourceConfig)));
        Map<String, String> hosts = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id().toString(), "cp-host");
        }
        Map<String, Object> body = new LinkedHashMap<>(Map.of("plan", plan,
                "placement", Map.of("hosts", hosts, "endpoints", Map.of("cp-host", node.dataEndpoint()))));
        if (restoreFrom != null) {
            body.put("restore", Map.of("checkpointId", restoreFrom));
        }
        return JSON.writeValueAsString(body);
    }

    private ResultActions deploy(String body) throws Exception {
        return mvc.perform(post("/api/v1/deployments").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private long recordsIn(String task) {
        return node.taskReports().stream().filter(r -> r.task().equals(task)).mapToLong(TaskReport::recordsIn)
                .findFirst().orElse(-1);
    }

    @Test
    void triggeringACheckpointStoresEveryTasksSnapshotAndAcksEachAndUnknownTopologiesAre404() throws Exception {
        deploy(deployment("cp", "{\"count\": 1000000, \"keys\": 50, \"ratePerSecond\": 20000}", null))
                .andExpect(status().isCreated());

        mvc.perform(post("/api/v1/deployments/cp/checkpoints/1")).andExpect(status().isAccepted());

        await().atMost(Duration.ofSeconds(10)).until(() -> reporter.acks.stream().filter(a -> a.startsWith("cp/"))
                .count() == 3);
        assertThat(store.get(TaskId.parse("cp/count#0"), 1)).isPresent();
        assertThat(store.get(TaskId.parse("cp/sink#0"), 1)).isPresent();
        mvc.perform(post("/api/v1/deployments/nope/checkpoints/1")).andExpect(status().isNotFound());
    }

    @Test
    void processingGoesOnWhileTheStoreIsDownAndCheckpointsResumeWhenItIsBack() throws Exception {
        deploy(deployment("slow", "{\"count\": 1000000, \"keys\": 50, \"ratePerSecond\": 20000}", null))
                .andExpect(status().isCreated());
        store.setAvailable(false);

        for (int id = 1; id <= 3; id++) {
            mvc.perform(post("/api/v1/deployments/slow/checkpoints/" + id)).andExpect(status().isAccepted());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> reporter.nacks.stream()
                .filter(n -> n.startsWith("slow/")).count() == 9);
        assertThat(reporter.nacks).allSatisfy(n -> assertThat(n).contains("STORE_UNAVAILABLE"));
        long before = recordsIn("slow/sink#0");
        await().atMost(Duration.ofSeconds(10)).until(() -> recordsIn("slow/sink#0") > before + 1000);
        assertThat(node.taskReports()).filteredOn(r -> r.task().startsWith("slow/"))
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(TaskStatus.RUNNING));

        store.setAvailable(true);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
            mvc.perform(post("/api/v1/deployments/slow/checkpoints/" + System.nanoTime() % 1_000_000 + 10));
            return reporter.acks.stream().filter(a -> a.startsWith("slow/sink#0")).count() >= 1;
        });
    }

    @Test
    void restoresEveryTaskFromTheNamedCheckpointBeforeStarting() throws Exception {
        deploy(deployment("restored", "{\"count\": 500000, \"keys\": 5, \"ratePerSecond\": 5000}", null))
                .andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(10)).until(() -> recordsIn("restored/sink#0") > 100);
        mvc.perform(post("/api/v1/deployments/restored/checkpoints/7")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(10)).until(() -> reporter.acks.stream()
                .filter(a -> a.startsWith("restored/") && a.contains(" 7 ")).count() == 3);
        Object countAtCheckpoint = node.queryAll(TaskId.parse("restored/sink#0"), "latest", 10).get("key-0");
        mvc.perform(delete("/api/v1/deployments/restored"));

        // restored with a source of 1 event/s: the sink starts from its state at checkpoint 7, which is at most
        // what was queried after it, and far more than a fresh start could reach in this time
        deploy(deployment("restored", "{\"count\": 500000, \"keys\": 5, \"ratePerSecond\": 1}", 7L))
                .andExpect(status().isCreated());
        Object restored = node.queryAll(TaskId.parse("restored/sink#0"), "latest", 10).get("key-0");
        assertThat(((Number) restored).longValue()).isGreaterThan(10)
                .isLessThanOrEqualTo(((Number) countAtCheckpoint).longValue() + 1);
    }

    @Test
    void refusesARestoreWhoseSnapshotIsMissingNamingTheTask() throws Exception {
        deploy(deployment("missing", "{\"count\": 10}", 99L))
                .andExpect(status().isBadGateway())
                .andExpect(jsonPath("$.task").value("missing/source#0"))
                .andExpect(jsonPath("$.detail", containsString("checkpoint 99")));
        assertThat(node.taskReports()).noneMatch(r -> r.task().startsWith("missing/"));
    }
}
