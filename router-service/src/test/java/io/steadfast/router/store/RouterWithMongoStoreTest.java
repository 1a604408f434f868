package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.EmbeddedMongo;
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

    private static final EmbeddedMongo MONGO = EmbeddedMongo.start();

    @DynamicPropertySource
    static void mongo(DynamicPropertyRegistry registry) {
        registry.add("spring.mongodb.uri", () -> MONGO.uri("steadfast-router-test"));
    }

    @AfterAll
    static void stop() {
        MONGO.close();
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
