package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The router's API while its MongoDB is down: the embedded MongoDB-wire server over an H2 file is stopped under a
 * running router and started again on the same port. The router keeps answering for its topologies from memory,
 * stays ready, takes deployments and cancellations, reports the store DOWN with the pending writes, and writes
 * them once the store is back.
 */
@SpringBootTest(properties = {
        "steadfast.router.store.server-selection-timeout=500ms",
        "steadfast.router.store.connect-timeout=500ms",
        "steadfast.router.store.write-timeout=10s",
        "steadfast.router.store.retry-interval=100ms",
        "steadfast.router.store.probe-interval=200ms"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@DirtiesContext
@Timeout(180)
class RouterApiDuringStoreOutageIT {

    private static final String DATABASE = "steadfast-router-outage";
    private static final RestartableMongoServer STORE = RestartableMongoServer.inTemporaryDirectory();
    private static final Duration STORE_BACK = Duration.ofSeconds(60);

    @DynamicPropertySource
    static void mongo(DynamicPropertyRegistry registry) {
        registry.add("spring.mongodb.uri", () -> STORE.uri(DATABASE));
    }

    @AfterAll
    static void stopStore() {
        STORE.close();
    }

    @Autowired
    MockMvc mvc;
    @Autowired
    MeterRegistry meters;

    @Test
    void answersForItsTopologiesAndTakesChangesWhileTheStoreIsDownThenWritesThemWhenItIsBack() throws Exception {
        register("outage-host");
        submit("kept").andExpect(status().isCreated());
        submit("cancelled").andExpect(status().isCreated());

        STORE.stop();
        await("the router reports its store DOWN").atMost(STORE_BACK).untilAsserted(() ->
                mvc.perform(get("/actuator/health"))
                        .andExpect(jsonPath("$.components.routerStore.status").value("DOWN"))
                        .andExpect(jsonPath("$.components.routerStore.details.topologies.reachable").value(false)));

        mvc.perform(get("/api/v1/topologies/kept")).andExpect(status().isOk())
                .andExpect(jsonPath("$.id").value("kept"))
                .andExpect(jsonPath("$.epoch").value(0));
        mvc.perform(get("/api/v1/topologies")).andExpect(status().isOk())
                .andExpect(jsonPath("$[*].id", contains("cancelled", "kept")));
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));

        mvc.perform(delete("/api/v1/topologies/cancelled")).andExpect(status().isNoContent());
        submit("added").andExpect(status().isCreated());
        mvc.perform(get("/api/v1/topologies")).andExpect(status().isOk())
                .andExpect(jsonPath("$[*].id", contains("added", "kept")));
        mvc.perform(get("/actuator/health"))
                .andExpect(jsonPath("$.components.routerStore.status").value("DOWN"))
                .andExpect(jsonPath("$.components.routerStore.details.topologies.pendingWrites").value(2))
                .andExpect(jsonPath("$.components.routerStore.details.topologies.lastError").isNotEmpty());
        assertThat(meters.get("steadfast.router.store.writes.pending").tag("records", "topologies").gauge().value())
                .isEqualTo(2);
        assertThat(meters.get("steadfast.router.store.reachable").gauge().value()).isZero();

        STORE.start();
        await("the changes made during the outage reach the store").atMost(STORE_BACK).untilAsserted(() ->
                mvc.perform(get("/actuator/health")).andExpect(status().isOk())
                        .andExpect(jsonPath("$.components.routerStore.status").value("UP"))
                        .andExpect(jsonPath("$.components.routerStore.details.topologies.pendingWrites").value(0)));
        try (MongoClient client = MongoClients.create(STORE.uri(DATABASE))) {
            assertThat(new MongoTopologyRepository(RouterRecordsMapping.template(client, DATABASE)).all())
                    .extracting(DeployedTopology::id).containsExactly(TopologyId.of("added"), TopologyId.of("kept"));
        }
        assertThat(meters.get("steadfast.router.store.reachable").gauge().value()).isEqualTo(1);
    }

    private void register(String host) throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9"}"""
                .formatted(host))).andExpect(status().isOk());
    }

    private ResultActions submit(String id) throws Exception {
        return mvc.perform(post("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).content("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 10}},
                  {"id": "sink", "type": "log-sink", "inputs": [{"from": "source"}]}
                ]}""".formatted(id)));
    }
}
