package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.recovery.MongoRecoveryStore;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.RecoveryStatus;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.json.JsonMapper;

/**
 * A router starts on a MongoDB (the embedded MongoDB-wire server over TCP) in which the router before it left a
 * recovery RECOVERING that had not redeployed yet: at start-up the recovery is marked ABANDONED in the store, the
 * topology's checkpointing stays paused, and once hosts have re-registered the topology is recovered afresh.
 */
@SpringBootTest(properties = {"steadfast.router.host-startup-grace=0s", "steadfast.router.heartbeat-timeout=1s"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@Timeout(60)
class RouterRestartDuringRecoveryTest {

    private static final TopologyId T = TopologyId.of("interrupted");
    private static final String SPEC = RouterCalls.pipeline(T.value(), "");
    private static final MongoServer SERVER = startServerWithAnInterruptedRecovery();

    private static MongoServer startServerWithAnInterruptedRecovery() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        try (MongoClient client = MongoClients.create(server.getConnectionString())) {
            MongoDatabase database = client.getDatabase("steadfast-router-restart");
            ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
            Instant at = Instant.parse("2026-01-01T00:00:00Z");
            new MongoTopologyRepository(database).add(new DeployedTopology(T, JsonMapper.builder().build()
                    .readTree(SPEC), plan, Map.of(TaskId.parse("interrupted/source#0"), new HostId("r-a"),
                    TaskId.parse("interrupted/count#0"), new HostId("r-b"), TaskId.parse("interrupted/sink#0"),
                    new HostId("r-c")), at));
            new RecoveryLog(new MongoRecoveryStore(database)).save(new Recovery(1, T, new HostId("r-c"),
                    List.of(TaskId.parse("interrupted/sink#0")), 0, null, at, at.plusMillis(900), null, null, 900,
                    null, null, RecoveryStatus.RECOVERING, null, "recovering", 0));
        }
        return server;
    }

    @DynamicPropertySource
    static void mongo(DynamicPropertyRegistry registry) {
        registry.add("spring.mongodb.uri", () -> "mongodb://127.0.0.1:" + SERVER.getLocalAddress().getPort()
                + "/steadfast-router-restart");
    }

    @AfterAll
    static void stop() {
        SERVER.shutdownNow();
    }

    @Autowired
    private MockMvc mvc;
    @Autowired
    private FakeHostClient hosts;
    @Autowired
    private RecoveryLog recoveries;

    private static List<Recovery> stored() {
        try (MongoClient client = MongoClients.create(SERVER.getConnectionString())) {
            return new RecoveryLog(new MongoRecoveryStore(client.getDatabase("steadfast-router-restart"))).all();
        }
    }

    @Test
    void abandonsTheInterruptedRecoveryInTheStoreAndRecoversTheTopologyAfreshOnceHostsAreBack() throws Exception {
        Recovery abandoned = stored().stream().filter(r -> r.id() == 1).findFirst().orElseThrow();
        assertThat(abandoned.status()).isEqualTo(RecoveryStatus.ABANDONED);
        assertThat(abandoned.failureReason()).isEqualTo("ROUTER_RESTARTED");
        mvc.perform(get("/api/v1/recoveries")).andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.id == 1)].status").value("ABANDONED"))
                .andExpect(jsonPath("$[?(@.id == 1)].failureReason").value("ROUTER_RESTARTED"));

        RouterCalls router = new RouterCalls(mvc);
        for (String host : List.of("r-a", "r-b", "r-c")) {
            router.register(host);
        }

        await("a fresh recovery redeployed the topology").atMost(Duration.ofSeconds(30))
                .until(() -> recoveries.all().get(0).status() == RecoveryStatus.RECOVERING
                        && recoveries.all().get(0).restoredAt() != null);
        Recovery fresh = recoveries.all().get(0);
        assertThat(fresh.id()).isGreaterThan(1);
        assertThat(fresh.epoch()).isEqualTo(1);
        assertThat(hosts.deployments).isNotEmpty().allMatch(d -> d.startsWith("interrupted@r-") && d.endsWith(":1:-"));
        assertThat(stored()).extracting(Recovery::id, Recovery::status)
                .contains(org.assertj.core.groups.Tuple.tuple(fresh.id(), RecoveryStatus.RECOVERING),
                        org.assertj.core.groups.Tuple.tuple(1L, RecoveryStatus.ABANDONED));
        await("checkpointing resumed").untilAsserted(() -> router.checkpoints(T.value())
                .andExpect(status().isOk()).andExpect(jsonPath("$.checkpointing.state").value("ACTIVE")));
    }
}
