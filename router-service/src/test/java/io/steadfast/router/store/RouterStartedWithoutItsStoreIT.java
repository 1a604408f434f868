package io.steadfast.router.store;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.topology.MongoTopologyRepository;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * A router started while its MongoDB is down: it starts and stays ready (hosts can register), says so in the
 * health component {@code routerStore}, answers its topology and recovery API with 503 until its records are
 * loaded, loads them in the background once the store is back, and then checks the hosts of the loaded
 * placements as after any restart.
 */
@SpringBootTest(properties = {
        "steadfast.router.store.server-selection-timeout=500ms",
        "steadfast.router.store.connect-timeout=500ms",
        "steadfast.router.store.retry-interval=100ms",
        "steadfast.router.store.probe-interval=200ms",
        "steadfast.router.host-startup-grace=0s"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@DirtiesContext
@Timeout(180)
class RouterStartedWithoutItsStoreIT {

    private static final String DATABASE = "steadfast-router-late";
    private static final RestartableMongoServer STORE = storeWithOneTopologyThenStopped();
    private static final Duration STORE_BACK = Duration.ofSeconds(60);

    /** What an earlier router left: topology "stored" on host-1 and host-2 (see {@link StoredTopologies}). */
    private static RestartableMongoServer storeWithOneTopologyThenStopped() {
        RestartableMongoServer store = RestartableMongoServer.inTemporaryDirectory();
        try (MongoClient client = MongoClients.create(store.uri(DATABASE))) {
            new MongoTopologyRepository(RouterRecordsMapping.template(client, DATABASE))
                    .add(StoredTopologies.topology("stored", 2));
        }
        store.stop();
        return store;
    }

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

    @Test
    void answers503UntilItsRecordsAreLoadedThenServesWhatTheStoreHad() throws Exception {
        mvc.perform(get("/api/v1/topologies")).andExpect(status().isServiceUnavailable())
                .andExpect(header().exists("Retry-After"))
                .andExpect(jsonPath("$.reason").value("RECORDS_NOT_LOADED"))
                .andExpect(jsonPath("$.detail").value(containsString("spring.mongodb.uri")));
        mvc.perform(get("/api/v1/topologies/stored")).andExpect(status().isServiceUnavailable());
        mvc.perform(get("/api/v1/recoveries")).andExpect(status().isServiceUnavailable());
        mvc.perform(get("/api/v1/hosts")).andExpect(status().isOk());
        mvc.perform(get("/actuator/health/readiness")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"));
        mvc.perform(get("/actuator/health"))
                .andExpect(jsonPath("$.components.routerStore.status").value("DOWN"))
                .andExpect(jsonPath("$.components.routerStore.details.topologies.loaded").value(false))
                .andExpect(jsonPath("$.components.routerStore.details.recoveries.loaded").value(false));

        STORE.start();
        await("the router loads its records once the store is back").atMost(STORE_BACK).untilAsserted(() ->
                mvc.perform(get("/api/v1/topologies")).andExpect(status().isOk())
                        .andExpect(jsonPath("$[*].id", contains("stored"))));
        mvc.perform(get("/api/v1/topologies/stored")).andExpect(status().isOk())
                .andExpect(jsonPath("$.epoch").value(2));
        await("routerStore UP").atMost(STORE_BACK).untilAsserted(() -> mvc.perform(get("/actuator/health"))
                .andExpect(jsonPath("$.components.routerStore.status").value("UP")));
        // Its hosts never registered with this router: once loaded, the restart check takes them as failed.
        await("the loaded topology's never-seen hosts are handled").atMost(STORE_BACK).untilAsserted(() ->
                mvc.perform(get("/api/v1/recoveries")).andExpect(status().isOk())
                        .andExpect(jsonPath("$[*].topology", hasItem("stored"))));
    }
}
