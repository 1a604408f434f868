package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.topology.WriteBehindTopologyRepository;
import io.steadfast.router.topology.TopologyRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * With {@code spring.mongodb.uri} set the router keeps its records in memory, written behind to that MongoDB, and
 * its store's health is UP against the embedded MongoDB-wire server (which does not know {@code hello}).
 */
@SpringBootTest
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
class RouterWithMongoStoreTest {

    private static final MongoServer SERVER = startServer();

    private static MongoServer startServer() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        return server;
    }

    @DynamicPropertySource
    static void mongo(DynamicPropertyRegistry registry) {
        var address = SERVER.getLocalAddress();
        registry.add("spring.mongodb.uri",
                () -> "mongodb://127.0.0.1:" + address.getPort() + "/steadfast-router-test");
    }

    @AfterAll
    static void stop() {
        SERVER.shutdownNow();
    }

    @Autowired
    TopologyRepository topologies;
    @Autowired
    RecoveryLog recoveries;
    @Autowired
    MockMvc mvc;

    @Test
    void usesMongoAndReportsItsHealthUp() throws Exception {
        assertThat(topologies).isInstanceOf(WriteBehindTopologyRepository.class);
        assertThat(recoveries.all()).isEmpty();
        mvc.perform(get("/actuator/health")).andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components.routerStore.status").value("UP"))
                .andExpect(jsonPath("$.components.routerStore.details.topologies.loaded").value(true));
        mvc.perform(get("/api/v1/topologies")).andExpect(status().isOk());
    }
}
