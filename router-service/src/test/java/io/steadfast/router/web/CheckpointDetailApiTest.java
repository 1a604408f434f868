package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointDetail.TaskAckState;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/topologies/{id}/checkpoints/{checkpointId}}: one checkpoint with each task's ack (or its
 * absence) as the checkpoint records keep it, the host the router places each task on, and a 404 problem for a
 * topology or checkpoint that is not there.
 */
@CheckpointApiContext
@Timeout(60)
class CheckpointDetailApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
    @Autowired
    private InMemoryCheckpointRecords records;

    private ResultActions checkpoint(String topology, Object checkpointId) throws Exception {
        return mvc.perform(get("/api/v1/topologies/{id}/checkpoints/{cp}", topology, checkpointId));
    }

    private CheckpointDetail detail(TopologyId topology, long checkpointId) throws Exception {
        return JSON.readValue(checkpoint(topology.value(), checkpointId).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString(), CheckpointDetail.class);
    }

    @Test
    void showsEveryTaskMissingWhileNoneAckedThenThoseAckedSoFarThenEachAckedWithItsSizeTimingsAndHost()
            throws Exception {
        TopologyId topology = TopologyId.of("detailed");
        FirstCheckpoint.triggeredFor(topology, List.of("detailed-a", "detailed-b"), new RouterCalls(mvc),
                coordinators, clock, hosts);
        Map<TaskId, HostId> placement = topologies.find(topology).orElseThrow().placement();

        CheckpointDetail pending = detail(topology, 1);

        assertThat(pending.summary().status()).isEqualTo(CheckpointSummary.PENDING);
        assertThat(pending.tasks()).extracting(TaskAckState::task)
                .containsExactlyInAnyOrderElementsOf(placement.keySet());
        assertThat(pending.tasks()).allSatisfy(task -> {
            assertThat(task.acked()).isFalse();
            assertThat(task.ackedAt()).isNull();
            assertThat(task.host()).as("the host %s is placed on", task.task()).isEqualTo(placement.get(task.task()));
        });
        assertThat(pending.missingTasks()).containsExactlyInAnyOrderElementsOf(placement.keySet());

        List<TaskId> tasks = placement.keySet().stream().sorted().toList();
        acknowledge(topology, tasks.get(0), placement.get(tasks.get(0)));

        CheckpointDetail partly = detail(topology, 1);
        assertThat(partly.summary().status()).isEqualTo(CheckpointSummary.PENDING);
        assertThat(partly.task(tasks.get(0))).as("the ack the router holds until the checkpoint completes")
                .contains(new TaskAckState(tasks.get(0), placement.get(tasks.get(0)), true, null, sizeOf(tasks.get(0)),
                        1L, 2L));
        assertThat(partly.missingTasks()).containsExactlyInAnyOrderElementsOf(tasks.subList(1, tasks.size()));

        Instant ackedAt = clock.instant();
        for (TaskId task : tasks.subList(1, tasks.size())) {
            acknowledge(topology, task, placement.get(task));
        }

        CheckpointDetail completed = detail(topology, 1);
        assertThat(completed.summary().status()).isEqualTo(CheckpointSummary.COMPLETED);
        assertThat(completed.missingTasks()).isEmpty();
        assertThat(completed.tasks()).hasSize(placement.size()).allSatisfy(task -> {
            assertThat(task.acked()).isTrue();
            assertThat(task.ackedAt()).isEqualTo(ackedAt);
            assertThat(task.sizeBytes()).isEqualTo(sizeOf(task.task()));
            assertThat(task.syncMillis()).isEqualTo(1L);
            assertThat(task.asyncMillis()).isEqualTo(2L);
            assertThat(task.host()).isEqualTo(placement.get(task.task()));
        });
        assertThat(completed.summary().sizeBytes())
                .isEqualTo(placement.keySet().stream().mapToLong(CheckpointDetailApiTest::sizeOf).sum());
    }

    @Test
    void aCheckpointThatTimedOutShowsTheTasksThatAckedAndThoseThatDidNot() throws Exception {
        TopologyId topology = TopologyId.of("detailed-late");
        FirstCheckpoint.triggeredFor(topology, List.of("detailed-a", "detailed-b"), new RouterCalls(mvc),
                coordinators, clock, hosts);
        Map<TaskId, HostId> placement = topologies.find(topology).orElseThrow().placement();
        List<TaskId> tasks = placement.keySet().stream().sorted().toList();
        acknowledge(topology, tasks.get(0), placement.get(tasks.get(0)));

        clock.advance(Duration.ofSeconds(11)); // past steadfast.router.checkpoint.timeout
        coordinators.tick();

        CheckpointDetail failed = detail(topology, 1);
        assertThat(failed.summary().status()).isEqualTo(CheckpointSummary.FAILED);
        assertThat(failed.summary().failureReason()).isEqualTo("TIMEOUT");
        assertThat(failed.task(tasks.get(0))).as("the ack taken before the timeout, recorded with the failure")
                .hasValueSatisfying(task -> {
                    assertThat(task.acked()).isTrue();
                    assertThat(task.sizeBytes()).isEqualTo(sizeOf(tasks.get(0)));
                });
        assertThat(failed.missingTasks()).containsExactlyInAnyOrderElementsOf(tasks.subList(1, tasks.size()));
    }

    @Test
    void writesTheSummaryFlatWithTheTasksAndTheTasksMissing() throws Exception {
        TopologyId topology = TopologyId.of("detailed-json");
        FirstCheckpoint.triggeredFor(topology, List.of("detailed-a"), new RouterCalls(mvc), coordinators, clock,
                hosts);
        TaskId first = topologies.find(topology).orElseThrow().placement().keySet().stream().sorted().findFirst()
                .orElseThrow();

        checkpoint(topology.value(), 1).andExpect(status().isOk())
                .andExpect(jsonPath("$.topology").value(topology.value()))
                .andExpect(jsonPath("$.checkpointId").value(1))
                .andExpect(jsonPath("$.status").value("PENDING"))
                .andExpect(jsonPath("$.triggeredAt").isNotEmpty())
                .andExpect(jsonPath("$.summary").doesNotExist())
                .andExpect(jsonPath("$.tasks[?(@.task == '" + first + "')].acked").value(false))
                .andExpect(jsonPath("$.tasks[?(@.task == '" + first + "')].host").isNotEmpty())
                .andExpect(jsonPath("$.missingTasks", hasItem(first.toString())));
    }

    @Test
    void answers404ForATopologyNotDeployedOrACheckpointTheStoreDoesNotKeepAnd400ForANegativeId() throws Exception {
        TopologyId topology = TopologyId.of("detailed-gone");
        FirstCheckpoint.triggeredFor(topology, List.of("detailed-a"), new RouterCalls(mvc), coordinators, clock,
                hosts);

        checkpoint("never-deployed", 1).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.reason").value("NOT_FOUND"))
                .andExpect(jsonPath("$.detail", containsString("'never-deployed' is not deployed")));
        checkpoint(topology.value(), 99).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.reason").value("CHECKPOINT_NOT_FOUND"))
                .andExpect(jsonPath("$.type").value("urn:steadfast:problem:checkpoint-not-found"))
                .andExpect(jsonPath("$.topology").value(topology.value()))
                .andExpect(jsonPath("$.checkpointId").value(99))
                .andExpect(jsonPath("$.detail", containsString("no checkpoint 99")));
        checkpoint(topology.value(), -1).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("checkpointId")));
        checkpoint(topology.value(), "latest").andExpect(status().isBadRequest());
    }

    @Test
    void answers503WhileTheCheckpointStoreIsUnreachable() throws Exception {
        TopologyId topology = TopologyId.of("detailed-offline");
        FirstCheckpoint.triggeredFor(topology, List.of("detailed-a"), new RouterCalls(mvc), coordinators, clock,
                hosts);
        records.setAvailable(false);
        try {
            checkpoint(topology.value(), 1).andExpect(status().isServiceUnavailable())
                    .andExpect(jsonPath("$.reason").value("UNAVAILABLE"));
        } finally {
            records.setAvailable(true);
        }
    }

    /** The task's ack of checkpoint 1 from its host, its snapshot of {@link #sizeOf} bytes. */
    private void acknowledge(TopologyId topology, TaskId task, HostId host) throws Exception {
        FirstCheckpoint.acknowledged(mvc, topology, task, host, sizeOf(task));
    }

    /** A size per task, so that a task shown with another's ack does not pass. */
    private static long sizeOf(TaskId task) {
        return 100L + task.toString().length() * 7L + task.subtask();
    }
}
