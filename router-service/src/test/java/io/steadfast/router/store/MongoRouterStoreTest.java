package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.router.EmbeddedMongo;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.recovery.LocalRecoveryMeasures;
import io.steadfast.router.recovery.MongoRecoveryStore;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.RecoveryStatus;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.CheckpointingSpec;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The router's Mongo-backed records against the embedded MongoDB-wire server, over TCP through the driver: what they
 * keep, and the documents Spring Data maps them to (every record type with every field set, the shape people and
 * earlier routers know).
 */
class MongoRouterStoreTest {

    private static final TopologyId T = TopologyId.of("t");
    private static final Instant AT = StoredTopologies.DEPLOYED_AT;
    /** With milliseconds: instants are stored as BSON dates, to the millisecond. */
    private static final Instant MS = Instant.parse("2026-01-01T00:00:00.123Z");

    private EmbeddedMongo mongo;
    private MongoTemplate database;

    @BeforeEach
    void startServer() {
        mongo = EmbeddedMongo.start();
        database = mongo.records("steadfast-router");
    }

    @AfterEach
    void stopServer() {
        mongo.close();
    }

    private static DeployedTopology topology(TopologyId id, int epoch) {
        return StoredTopologies.topology(id.value(), epoch);
    }

    @Test
    void topologiesRoundTripAndSurviveANewRepository() {
        MongoTopologyRepository repository = new MongoTopologyRepository(database);
        DeployedTopology t = topology(T, 1);
        assertThat(repository.add(t)).isTrue();
        assertThat(repository.add(topology(T, 5))).as("duplicate id").isFalse();
        assertThat(repository.add(topology(TopologyId.of("a"), 1))).isTrue();

        MongoTopologyRepository reopened = new MongoTopologyRepository(database);
        DeployedTopology read = reopened.find(T).orElseThrow();
        assertThat(read.id()).isEqualTo(T);
        assertThat(read.plan()).isEqualTo(t.plan());
        assertThat(read.placement()).isEqualTo(t.placement());
        assertThat(read.spec()).isEqualTo(t.spec());
        assertThat(new TopologySpecReader().read(read.spec()).checkpointing())
                .as("the topology's own checkpoint settings survive the store")
                .isEqualTo(new CheckpointingSpec(1500L, null, 2));
        assertThat(read.deployedAt()).isEqualTo(AT);
        assertThat(reopened.all()).extracting(DeployedTopology::id).containsExactly(TopologyId.of("a"), T);

        assertThat(reopened.replace(topology(T, 2))).isTrue();
        assertThat(repository.find(T).orElseThrow().plan().epoch()).isEqualTo(2);
        assertThat(reopened.replace(topology(TopologyId.of("none"), 1))).isFalse();
        assertThat(reopened.remove(T)).isTrue();
        assertThat(reopened.remove(T)).isFalse();
        assertThat(repository.find(T)).isEmpty();
    }

    @Test
    void recoveriesAreReloadedAndIdsContinue() {
        RecoveryLog log = new RecoveryLog(new MongoRecoveryStore(database));
        long first = log.nextId();
        Recovery recovering = Recovery.builder().id(first).topology(T).tasks(List.of(TaskId.parse("t/count#0")))
                .failure(new HostId("host-2"), AT, AT.plusMillis(900)).detection(900, null)
                .restoration(null, 1, 42).status(RecoveryStatus.RECOVERING, null, "recovering").build();
        log.save(recovering);
        Recovery recovered = Recovery.builder().id(first).topology(T).tasks(List.of(TaskId.parse("t/count#0")))
                .failure(new HostId("host-2"), AT, AT.plusMillis(900)).detection(900, null)
                .restoration(new Recovery.Restoration(null, 2, 7L, 42, null))
                .timings(new Recovery.Timings(AT.plusSeconds(2), AT.plusSeconds(3), 1100L, 1000L))
                .status(RecoveryStatus.RECOVERED, null, "redeployed").build();
        log.save(recovered);

        RecoveryLog reloaded = new RecoveryLog(new MongoRecoveryStore(database));
        assertThat(reloaded.all()).containsExactly(recovered);
        assertThat(reloaded.countOf(T)).isEqualTo(1);
        assertThat(reloaded.nextId()).isEqualTo(first + 1);
    }

    // --- the records as documents (the Spring Data mapping)

    @Test
    void storesATopologyWithItsIncarnationsAndTextIds() {
        DeployedTopology deployed = StoredTopologies.topology("t", 3);
        DeployedTopology recovered = deployed.recovered(deployed.plan(),
                Map.of(TaskId.parse("t/source#0"), new HostId("host-1"), TaskId.parse("t/count#0"),
                        new HostId("host-3"), TaskId.parse("t/count#1"), new HostId("host-1"),
                        TaskId.parse("t/sink#0"), new HostId("host-2")),
                List.of(TaskId.parse("t/count#0")));
        new MongoTopologyRepository(database).save(recovered);

        DeployedTopology read = new MongoTopologyRepository(database).find(T).orElseThrow();
        assertThat(read.id()).isEqualTo(T);
        assertThat(read.spec()).isEqualTo(recovered.spec());
        assertThat(read.plan()).isEqualTo(recovered.plan());
        assertThat(read.placement()).isEqualTo(recovered.placement());
        assertThat(read.incarnations()).isEqualTo(Map.of(TaskId.parse("t/count#0"), 1));
        assertThat(read.deployedAt()).isEqualTo(recovered.deployedAt());

        Document stored = rawDocument(MongoTopologyRepository.COLLECTION);
        assertThat(stored.get("_id")).isEqualTo("t");
        assertThat(stored.getInteger("epoch")).isEqualTo(3);
        assertThat(stored.getString("plan")).startsWith("{");
        assertThat(stored.getList("placement", Document.class)).first()
                .isEqualTo(new Document("task", "t/count#0").append("host", "host-3").append("incarnation", 1));
        assertThat(stored).doesNotContainKey("_class");
    }

    @Test
    void storesARecoveryWithEveryFieldSet() {
        LocalRecoveryMeasures measures = new LocalRecoveryMeasures(MS.plusMillis(5),
                Map.of("t/count.v2#0", "host-3", "t/sink#0", "host-4"), 1,
                new LocalRecoveryMeasures.TargetHosts(11, 12, 13, 14), 15L, 16L, "fell back: no standby");
        Recovery recovery = Recovery.builder().id(7).topology(T).tasks(List.of(TaskId.parse("t/count#0")))
                .failure(new HostId("host-2"), MS, MS.plusMillis(900))
                .detection(900, DetectionCause.DATA_PLANE_DISCONNECT)
                .restoration(new Recovery.Restoration(RecoveryMode.LOCAL, 2, 9L, 42, false, new RecoveryForecasts(
                        new RecoveryForecast("LOCAL", 250.5, 20.0, 8_000, List.of(new RecoveryForecast.Step(
                                "detection", 200.0, "300 ms of silence less half a heartbeat interval"))),
                        new RecoveryForecast("GLOBAL", null, null, 90_000, List.of(new RecoveryForecast.Step(
                                "catch-up", null, "t/count#1 cannot keep up: rho 1.02"))),
                        "LOCAL", "GLOBAL never catches up")))
                .timings(new Recovery.Timings(MS.plusSeconds(2), MS.plusSeconds(3), 1100L, 1000L))
                .status(RecoveryStatus.RECOVERED, "SUPERSEDED", "recovered").local(measures).build();
        new MongoRecoveryStore(database).save(recovery);

        assertThat(new MongoRecoveryStore(database).loadAll()).containsExactly(recovery);
        Document stored = rawDocument(MongoRecoveryStore.COLLECTION);
        assertThat(stored.get("_id")).isEqualTo(7L);
        assertThat(stored.getString("topology")).isEqualTo("t");
        assertThat(stored.getString("status")).isEqualTo("RECOVERED");
        assertThat(stored.get("recovery", Document.class).getList("tasks", String.class))
                .containsExactly("t/count#0");
    }

    @Test
    void readsARecoveryAnEarlierRouterStoredAsJsonText() {
        Recovery recovery = Recovery.builder().id(3).topology(T).tasks(List.of(TaskId.parse("t/count#0")))
                .failure(new HostId("host-2"), MS, MS.plusMillis(900)).detection(900, null)
                .restoration(null, 1, 42).status(RecoveryStatus.RECOVERING, null, "recovering").build();
        database.getCollection(MongoRecoveryStore.COLLECTION).insertOne(new Document("_id", 3L)
                .append("topology", "t").append("status", "RECOVERING")
                .append("json", JsonMapper.builder().build().writeValueAsString(recovery)));

        assertThat(new MongoRecoveryStore(database).loadAll()).containsExactly(recovery);
    }

    private Document rawDocument(String collection) {
        return database.getCollection(collection).find().first();
    }
}
