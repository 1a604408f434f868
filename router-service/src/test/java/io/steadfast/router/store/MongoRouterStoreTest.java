package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import io.steadfast.router.EmbeddedMongo;
import io.steadfast.router.recovery.MongoRecoveryStore;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.RecoveryStatus;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.CheckpointingSpec;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The router's Mongo-backed records against the embedded MongoDB-wire server, over TCP through the driver. */
class MongoRouterStoreTest {

    private static final TopologyId T = TopologyId.of("t");
    private static final Instant AT = StoredTopologies.DEPLOYED_AT;

    private EmbeddedMongo mongo;
    private MongoDatabase database;

    @BeforeEach
    void startServer() {
        mongo = EmbeddedMongo.start();
        database = mongo.database("steadfast-router");
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
}
