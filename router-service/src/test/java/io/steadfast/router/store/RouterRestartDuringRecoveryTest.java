package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.router.EmbeddedMongo;
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
import io.steadfast.testkit.ManualClock;
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
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.json.JsonMapper;
import org.springframework.data.mongodb.core.MongoTemplate;

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
    private static final String DATABASE = "steadfast-router-restart";
    private static final EmbeddedMongo MONGO = startWithAnInterruptedRecovery();

    private static EmbeddedMongo startWithAnInterruptedRecovery() {
        EmbeddedMongo mongo = EmbeddedMongo.start();
        MongoTemplate database = mongo.records(DATABASE);
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(SPEC));
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        new MongoTopologyRepository(database).add(new DeployedTopology(T, JsonMapper.builder().build().readTree(SPEC),
                plan, Map.of(TaskId.parse("interrupted/source#0"), new HostId("r-a"), TaskId.parse("interrupted/count#0"),
                        new HostId("r-b"), TaskId.parse("interrupted/sink#0"), new HostId("r-c")), at));
        new RecoveryLog(new MongoRecoveryStore(database)).save(Recovery.builder().id(1).topology(T)
                .tasks(List.of(TaskId.parse("interrupted/sink#0"))).failure(new HostId("r-c"), at, at.plusMillis(900))
                .detection(900, null).restoration(null, 0, 0).status(RecoveryStatus.RECOVERING, null, "recovering")
                .build());
        return mongo;
    }

    @DynamicPropertySource
    static void mongo(DynamicPropertyRegistry registry) {
        registry.add("spring.mongodb.uri", () -> MONGO.uri(DATABASE));
    }

    @AfterAll
    static void stop() {
        MONGO.close();
    }

    @Autowired
    private MockMvc mvc;
    @Autowired
    private FakeHostClient hosts;
    @Autowired
    private ManualClock clock;
    @Autowired
    private RecoveryLog recoveries;

    private static List<Recovery> stored() {
        return new RecoveryLog(new MongoRecoveryStore(MONGO.records(DATABASE))).all();
    }

    @Test
    void abandonsTheInterruptedRecoveryInTheStoreAndRecoversTheTopologyAfreshOnceHostsAreBack() throws Exception {
        Recovery abandoned = stored().stream().filter(r -> r.id() == 1).findFirst().orElseThrow();
        assertThat(abandoned.status()).isEqualTo(RecoveryStatus.ABANDONED);
        assertThat(abandoned.failureReason()).isEqualTo("ROUTER_RESTARTED");
        mvc.perform(get("/api/v1/recoveries")).andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.id == 1)].status").value("ABANDONED"))
                .andExpect(jsonPath("$[?(@.id == 1)].failureReason").value("ROUTER_RESTARTED"));
        mvc.perform(get("/api/v1/recoveries").param("topology", abandoned.topology().value()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.id == 1)].status").value("ABANDONED"));
        mvc.perform(get("/api/v1/recoveries").param("topology", "another")).andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(0));
        mvc.perform(get("/api/v1/recoveries").param("topology", "Not_Valid")).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", org.hamcrest.Matchers.containsString("topology: 'Not_Valid'")));

        RouterCalls router = new RouterCalls(mvc);
        for (String host : List.of("r-a", "r-b", "r-c")) {
            router.register(host);
        }

        // On a slow machine the restart grace may pass before the hosts register: the recovery then fails for
        // want of live hosts and is retried after its backoff, on the router's clock, which the test moves.
        await("a fresh recovery redeployed the topology").atMost(Duration.ofSeconds(30)).until(() -> {
            clock.advance(Duration.ofMillis(500));
            for (String host : List.of("r-a", "r-b", "r-c")) {
                mvc.perform(put("/api/v1/hosts/{id}/heartbeat", host).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tasks\": []}")).andExpect(status().isOk());
            }
            return recoveries.all().get(0).status() == RecoveryStatus.RECOVERING
                    && recoveries.all().get(0).restoredAt() != null;
        });
        Recovery fresh = recoveries.all().get(0);
        assertThat(fresh.id()).isGreaterThan(1);
        assertThat(fresh.epoch()).isEqualTo(1);
        assertThat(hosts.deployments).isNotEmpty().allMatch(d -> d.startsWith("interrupted@r-") && d.endsWith(":1:-"));
        // the fresh recovery reaches the store too; it may have caught up by now, so RECOVERED is as good
        await("the fresh recovery in the store").untilAsserted(() -> assertThat(stored())
                .filteredOn(r -> r.id() == fresh.id()).singleElement().extracting(Recovery::status)
                .isIn(RecoveryStatus.RECOVERING, RecoveryStatus.RECOVERED));
        assertThat(stored()).filteredOn(r -> r.id() == 1L).singleElement().extracting(Recovery::status)
                .isEqualTo(RecoveryStatus.ABANDONED);
        await("checkpointing resumed").untilAsserted(() -> router.checkpoints(T.value())
                .andExpect(status().isOk()).andExpect(jsonPath("$.checkpointing.state").value("ACTIVE")));
    }
}
