package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Checkpoints that fail while the checkpoint store is unreachable are kept by the router and recorded once it is
 * back: the whole router on its checkpoint thread, the store switched off and on ({@link InMemoryCheckpointRecords}),
 * time moved by hand. The hosts are fakes, so the test acknowledges for them over the router's REST API.
 */
@CheckpointApiContext
@Timeout(60)
class CheckpointsAcrossStoreOutageTest {

    private static final TopologyId T = TopologyId.of("outage");

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ManualClock clock;
    @Autowired
    private InMemoryCheckpointRecords store;
    @Autowired
    private FakeHostClient hosts;
    @Autowired
    private CheckpointCoordinators coordinators;
    @Autowired
    private TopologyRepository topologies;

    @Test
    void checkpointsThatFailedDuringTheOutageAreListedFailedWithTheirReasonOnceTheStoreIsBack() throws Exception {
        RouterCalls router = new RouterCalls(mvc);
        FirstCheckpoint.triggeredFor(T, List.of("outage-a", "outage-b"), router, coordinators, clock, hosts);

        store.setAvailable(false);
        clock.advance(Duration.ofSeconds(10)); // checkpoint 1 expires; checkpoint 2 cannot even be recorded as started
        await("both failures kept").until(() -> coordinators.unrecordedFailures(T) == 2);
        router.checkpoints(T.value()).andExpect(status().isServiceUnavailable());

        store.setAvailable(true);
        await("the kept failures recorded").until(() -> coordinators.unrecordedFailures(T) == 0);
        router.checkpoints(T.value()).andExpect(status().isOk())
                .andExpect(jsonPath("$.checkpoints[1].checkpointId").value(1))
                .andExpect(jsonPath("$.checkpoints[1].status").value("FAILED"))
                .andExpect(jsonPath("$.checkpoints[1].failureReason").value("TIMEOUT"))
                .andExpect(jsonPath("$.checkpoints[0].checkpointId").value(2))
                .andExpect(jsonPath("$.checkpoints[0].status").value("FAILED"))
                .andExpect(jsonPath("$.checkpoints[0].failureReason").value("STORE_UNAVAILABLE"))
                .andExpect(jsonPath("$.checkpoints[0].failureMessage").value(org.hamcrest.Matchers.allOf(
                        org.hamcrest.Matchers.containsString("the checkpoint store is unavailable"),
                        org.hamcrest.Matchers.containsString("once the checkpoint store answered again"))))
                .andExpect(jsonPath("$.checkpointing.unrecordedFailures").value(0));

        clock.advance(Duration.ofSeconds(1));
        await("checkpoint 3 triggered").until(() -> hosts.triggers.stream().anyMatch(t -> t.endsWith(":3")));
        acknowledgeEveryTask(3);

        router.checkpoints(T.value()).andExpect(status().isOk())
                .andExpect(jsonPath("$.latestCompleted").value(3))
                .andExpect(jsonPath("$.checkpoints[0].checkpointId").value(3))
                .andExpect(jsonPath("$.checkpoints[0].status").value("COMPLETED"));
        assertThat(store.list(T)).extracting(s -> s.checkpointId() + ":" + s.status())
                .containsExactly("3:COMPLETED", "2:FAILED", "1:FAILED");
    }

    private void acknowledgeEveryTask(long checkpointId) {
        topologies.find(T).orElseThrow().placement().forEach((task, host) -> {
            try {
                mvc.perform(post("/api/v1/topologies/{id}/checkpoints/{cp}/acks", T.value(), checkpointId)
                        .contentType(MediaType.APPLICATION_JSON).content("""
                                {"task": "%s", "host": "%s", "sizeBytes": 10, "syncMillis": 1, "asyncMillis": 2}"""
                                .formatted(task, host.value())))
                        .andExpect(status().isAccepted());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}
