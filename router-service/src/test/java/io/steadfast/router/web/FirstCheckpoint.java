package io.steadfast.router.web;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.time.Duration;
import java.util.List;

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
}
