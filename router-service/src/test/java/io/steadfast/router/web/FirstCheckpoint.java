package io.steadfast.router.web;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/** Test arrangement: a pipeline deployed on fake hosts, and its first checkpoint triggered by the router. */
final class FirstCheckpoint {

    private FirstCheckpoint() {
    }

    static void triggeredFor(TopologyId topology, List<String> hosts, RouterCalls router,
                             CheckpointCoordinators coordinators, ManualClock clock, FakeHostClient fakes)
            throws Exception {
        for (String host : hosts) {
            router.register(host);
        }
        router.submit(RouterCalls.pipeline(topology.value(), "")).andExpect(status().isCreated());
        await().until(() -> coordinators.coordinator(topology).isPresent());
        clock.advance(Duration.ofSeconds(1));
        await("checkpoint 1 triggered").until(() -> fakes.triggers.stream().anyMatch(t -> t.endsWith(":1")));
    }

    /** The task's ack of checkpoint 1 from its host, its snapshot of {@code sizeBytes}, 1 ms sync, 2 ms async. */
    static void acknowledged(MockMvc mvc, TopologyId topology, TaskId task, HostId host, long sizeBytes)
            throws Exception {
        mvc.perform(post("/api/v1/topologies/{id}/checkpoints/1/acks", topology.value())
                .contentType(MediaType.APPLICATION_JSON).content("""
                        {"task": "%s", "host": "%s", "sizeBytes": %d, "syncMillis": 1, "asyncMillis": 2}"""
                        .formatted(task, host.value(), sizeBytes)))
                .andExpect(status().isAccepted());
    }
}
