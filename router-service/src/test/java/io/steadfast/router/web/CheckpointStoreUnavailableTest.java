package io.steadfast.router.web;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.RouterCalls;
import io.steadfast.router.TestClockAndHosts;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.HttpCheckpointRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The router's real {@link HttpCheckpointRecords} against a checkpoint-service that does not run (a closed port on
 * loopback): the checkpoint listing and the trigger answer 503 problems that say so, instead of 500.
 */
@SpringBootTest(properties = {"steadfast.router.host-startup-grace=0s", "steadfast.router.heartbeat-timeout=1h"})
@AutoConfigureMockMvc
@Import(TestClockAndHosts.class)
class CheckpointStoreUnavailableTest {

    private static final String PROBLEM = "application/problem+json";

    @DynamicPropertySource
    static void checkpointServiceNotRunning(DynamicPropertyRegistry registry) {
        // A port that was just free and is closed again: connections to it are refused at once.
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        registry.add("steadfast.router.checkpoint.service-url", () -> "http://127.0.0.1:" + closedPort);
    }

    @Autowired
    private MockMvc mvc;
    @Autowired
    private CheckpointRecords records;

    @Test
    void listingAndTriggeringAnswer503NamingTheCheckpointServiceWhileItIsDown() throws Exception {
        org.assertj.core.api.Assertions.assertThat(records).isInstanceOf(HttpCheckpointRecords.class);
        RouterCalls router = new RouterCalls(mvc);
        router.register("down-a");
        router.submit(RouterCalls.pipeline("down", "")).andExpect(status().isCreated());

        router.checkpoints("down")
                .andExpect(status().isServiceUnavailable())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.title").value("Checkpoint store unavailable"))
                .andExpect(jsonPath("$.service").value("checkpoint-service"))
                .andExpect(jsonPath("$.reason").value("UNAVAILABLE"))
                .andExpect(jsonPath("$.detail", containsString("The checkpoint-service, which keeps the checkpoint"
                        + " records, is unavailable")))
                .andExpect(jsonPath("$.detail", containsString("steadfast.router.checkpoint.service-url")))
                .andExpect(jsonPath("$.detail", not(containsString(": null"))))
                .andExpect(jsonPath("$.detail", containsString("Retry in a few seconds")));
        router.trigger("down")
                .andExpect(status().isServiceUnavailable())
                .andExpect(content().contentTypeCompatibleWith(PROBLEM))
                .andExpect(jsonPath("$.title").value("Checkpoint store unavailable"));
        router.checkpoints("nope").andExpect(status().isNotFound());
    }
}
