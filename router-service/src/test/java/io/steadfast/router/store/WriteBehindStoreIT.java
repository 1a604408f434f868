package io.steadfast.router.store;

import static io.steadfast.router.store.StoredTopologies.topology;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.steadfast.router.recovery.MongoRecoveryStore;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.RecoveryStatus;
import io.steadfast.router.recovery.WriteBehindRecoveryStore;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.router.topology.WriteBehindTopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The router's records written behind to the embedded MongoDB-wire server over TCP, with the server stopped
 * (every connection closed) and started again on the same port with the same data file, as a store that crashes
 * and comes back. The write timeout is long (20 s), so a call that returns quickly while the store is down shows
 * that it did not wait for the store, and a change made while it is up is in the store when the call returns.
 */
@Timeout(180)
class WriteBehindStoreIT {

    private static final WriteBehind.Settings SETTINGS = new WriteBehind.Settings(Duration.ofSeconds(20),
            Duration.ofMillis(100), Duration.ofMillis(200));
    /** Far below the write timeout: a change made while the store is known to be down returns at once. */
    private static final Duration NOT_BLOCKED = Duration.ofSeconds(10);
    private static final Duration STORE_BACK = Duration.ofSeconds(60);
    private static final TopologyId A = TopologyId.of("a");
    private static final TopologyId B = TopologyId.of("b");
    private static final TopologyId C = TopologyId.of("c");
    private static final TopologyId D = TopologyId.of("d");

    @TempDir
    Path dir;
    private RestartableMongoServer store;
    private MongoClient client;
    private MongoTemplate database;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void startStore() {
        store = new RestartableMongoServer(dir.resolve("router-store.h2"));
        client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(store.uri("steadfast-router")))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(500, TimeUnit.MILLISECONDS))
                .applyToSocketSettings(socket -> socket.connectTimeout(500, TimeUnit.MILLISECONDS)
                        .readTimeout(2, TimeUnit.SECONDS))
                .build());
        database = RouterRecordsMapping.template(client, "steadfast-router");
    }

    @AfterEach
    void stopAll() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        client.close();
        store.close();
    }

    /** A router's topology repository on the store, as a (re)started router makes it; not loaded yet. */
    private WriteBehindTopologyRepository newTopologyRepository() {
        WriteBehindTopologyRepository repository = new WriteBehindTopologyRepository(
                new MongoTopologyRepository(database), "the test store", SETTINGS, Clock.systemUTC());
        opened.add(repository);
        return repository;
    }

    private WriteBehindTopologyRepository loadedTopologyRepository() {
        WriteBehindTopologyRepository repository = newTopologyRepository();
        assertThat(repository.load()).as("loaded at once from a running store").isTrue();
        return repository;
    }

    /** What the store itself holds: the epoch of every stored topology, by id. */
    private Map<TopologyId, Integer> storedEpochs() {
        Map<TopologyId, Integer> epochs = new TreeMap<>();
        new MongoTopologyRepository(database).all().forEach(t -> epochs.put(t.id(), t.plan().epoch()));
        return epochs;
    }

    private void awaitEverythingWritten(WriteBehindTopologyRepository repository) {
        await("the changes made while the store was down reach it").atMost(STORE_BACK)
                .until(() -> repository.status().pendingWrites() == 0 && repository.status().healthy());
    }

    @Test
    void aRouterThatNoLongerLeadsWritesNothingMore() {
        java.util.concurrent.atomic.AtomicBoolean leading = new java.util.concurrent.atomic.AtomicBoolean(true);
        WriteBehindTopologyRepository repository = new WriteBehindTopologyRepository(
                new MongoTopologyRepository(database), "the test store", SETTINGS, Clock.systemUTC(), leading::get);
        opened.add(repository);
        assertThat(repository.load()).isTrue();
        repository.add(topology("a", 0));
        awaitEverythingWritten(repository);

        leading.set(false); // its lease lapsed: another router may own the records now
        repository.add(topology("b", 3));
        repository.replace(topology("a", 1));

        await("the refused writes stay pending").atMost(STORE_BACK)
                .until(() -> repository.status().pendingWrites() == 2);
        assertThat(storedEpochs()).as("what the leader stored stays as it was").containsExactly(Map.entry(A, 0));
    }

    @Test
    void readsKeepAnsweringFromMemoryWhileTheStoreIsStopped() {
        WriteBehindTopologyRepository repository = loadedTopologyRepository();
        repository.add(topology("a", 0));
        repository.add(topology("b", 3));

        store.stop();
        await("the repository notices the store is down").atMost(STORE_BACK)
                .until(() -> !repository.status().reachable());

        assertThat(repository.find(A)).map(t -> t.plan().epoch()).hasValue(0);
        assertThat(repository.find(B)).map(t -> t.plan().epoch()).hasValue(3);
        assertThat(repository.all()).extracting(DeployedTopology::id).containsExactly(A, B);
        assertThat(repository.status().healthy()).isFalse();
        assertThat(repository.status().lastError()).isNotBlank();
        assertThat(repository.status().unreachableSince()).isNotNull();
    }

    @Test
    void changesMadeWhileTheStoreIsDownReachItOnceItIsBackOnTheSamePort() {
        WriteBehindTopologyRepository repository = loadedTopologyRepository();
        repository.add(topology("a", 0));
        repository.add(topology("b", 0));
        repository.add(topology("c", 0));
        assertThat(storedEpochs()).as("written through while the store is up")
                .isEqualTo(Map.of(A, 0, B, 0, C, 0));

        store.stop();
        assertTimeoutPreemptively(NOT_BLOCKED, () -> {
            assertThat(repository.replace(topology("a", 1))).isTrue();
            assertThat(repository.remove(B)).isTrue();
            assertThat(repository.add(topology("d", 0))).isTrue();
        }, "changes must not wait for a store that is down");
        assertThat(repository.all()).extracting(DeployedTopology::id).containsExactly(A, C, D);
        assertThat(repository.find(A)).map(t -> t.plan().epoch()).hasValue(1);
        assertThat(repository.status().pendingWrites()).isEqualTo(3);

        store.start();
        awaitEverythingWritten(repository);
        assertThat(storedEpochs()).as("the replacement, the removal and the addition, over the data kept from before")
                .isEqualTo(Map.of(A, 1, C, 0, D, 0));
    }

    @Test
    void repeatedUpdatesOfOneTopologyCoalesceIntoItsLatestState() {
        WriteBehindTopologyRepository repository = loadedTopologyRepository();
        repository.add(topology("a", 0));
        repository.add(topology("b", 0));

        store.stop();
        assertTimeoutPreemptively(NOT_BLOCKED, () -> {
            for (int epoch = 1; epoch <= 5; epoch++) {
                assertThat(repository.replace(topology("a", epoch))).isTrue();
            }
            assertThat(repository.remove(B)).isTrue();
            assertThat(repository.add(topology("b", 7))).as("removed, then added again").isTrue();
            assertThat(repository.add(topology("c", 0))).isTrue();
        });
        assertThat(repository.status().pendingWrites()).as("one pending write per topology: a, b and c")
                .isEqualTo(3);

        store.start();
        awaitEverythingWritten(repository);
        assertThat(storedEpochs()).as("each topology's latest state").isEqualTo(Map.of(A, 5, B, 7, C, 0));
    }

    @Test
    void aRepositoryStartedOnTheStoreLoadsWhatAnEarlierOneWrote() {
        WriteBehindTopologyRepository first = loadedTopologyRepository();
        first.add(topology("a", 0));
        first.add(topology("b", 0));
        store.stop();
        first.replace(topology("a", 2));
        first.remove(B);
        first.add(topology("c", 1));
        store.start();
        awaitEverythingWritten(first);
        first.close();

        WriteBehindTopologyRepository restarted = loadedTopologyRepository();
        assertThat(restarted.all()).extracting(DeployedTopology::id).containsExactly(A, C);
        DeployedTopology a = restarted.find(A).orElseThrow();
        assertThat(a.plan()).isEqualTo(topology("a", 2).plan());
        assertThat(a.placement()).isEqualTo(topology("a", 2).placement());
        assertThat(restarted.find(C)).map(t -> t.plan().epoch()).hasValue(1);
    }

    @Test
    void aRepositoryStartedWhileTheStoreIsDownRefusesChangesAndLoadsOnceTheStoreIsBack() {
        WriteBehindTopologyRepository first = loadedTopologyRepository();
        first.add(topology("a", 4));
        first.close();
        store.stop();

        WriteBehindTopologyRepository restarted = newTopologyRepository();
        assertThat(restarted.load()).as("cannot load from a store that is down").isFalse();
        assertThat(restarted.status().loaded()).isFalse();
        assertThat(restarted.all()).isEmpty();
        assertThatThrownBy(() -> restarted.add(topology("a", 0)))
                .as("a topology added now could take the id of a stored one")
                .isInstanceOf(RecordsNotLoadedException.class).hasMessageContaining("topologies");
        List<String> loadedCalls = new ArrayList<>();
        restarted.whenLoaded(() -> loadedCalls.add("loaded"));
        assertThat(loadedCalls).isEmpty();

        store.start();
        await("loaded in the background once the store is back").atMost(STORE_BACK)
                .until(() -> restarted.status().loaded());
        assertThat(loadedCalls).containsExactly("loaded");
        assertThat(restarted.find(A)).map(t -> t.plan().epoch()).hasValue(4);
        assertThat(restarted.add(topology("a", 0))).as("a is stored already").isFalse();
        assertThat(restarted.add(topology("b", 0))).isTrue();
        assertThat(storedEpochs()).isEqualTo(Map.of(A, 4, B, 0));
    }

    @Test
    void recoveriesSavedWhileTheStoreIsDownReachItAndAreLoadedByTheNextRouter() {
        WriteBehindRecoveryStore recoveryStore = new WriteBehindRecoveryStore(new MongoRecoveryStore(database),
                "the test store", SETTINGS, Clock.systemUTC());
        opened.add(recoveryStore);
        RecoveryLog log = new RecoveryLog(recoveryStore);
        assertThat(recoveryStore.load(log::restore)).isTrue();
        Recovery first = recovering(log.nextId());
        log.save(first);

        store.stop();
        Recovery firstRecovered = recovered(first);
        Recovery second = recovering(log.nextId());
        assertTimeoutPreemptively(NOT_BLOCKED, () -> {
            log.save(firstRecovered);
            log.save(second);
        });
        assertThat(log.all()).as("newest first, from memory").containsExactly(second, firstRecovered);
        assertThat(recoveryStore.status().pendingWrites()).isEqualTo(2);

        store.start();
        await("the recoveries saved while the store was down reach it").atMost(STORE_BACK)
                .until(() -> recoveryStore.status().pendingWrites() == 0 && recoveryStore.status().healthy());
        assertThat(new MongoRecoveryStore(database).loadAll()).containsExactlyInAnyOrder(firstRecovered, second);

        WriteBehindRecoveryStore restartedStore = new WriteBehindRecoveryStore(new MongoRecoveryStore(database),
                "the test store", SETTINGS, Clock.systemUTC());
        opened.add(restartedStore);
        RecoveryLog restarted = new RecoveryLog(restartedStore);
        assertThat(restartedStore.load(restarted::restore)).isTrue();
        assertThat(restarted.all()).containsExactly(second, firstRecovered);
        assertThat(restarted.nextId()).as("ids continue after the stored ones").isEqualTo(second.id() + 1);
    }

    private static Recovery recovering(long id) {
        Instant at = StoredTopologies.DEPLOYED_AT;
        return Recovery.builder().id(id).topology(A).tasks(List.of(TaskId.parse("a/count#0")))
                .failure(new HostId("host-2"), at, at.plusMillis(900)).detection(900, null).restoration(null, 1, 42)
                .status(RecoveryStatus.RECOVERING, null, "recovering").build();
    }

    private static Recovery recovered(Recovery r) {
        return Recovery.builder().id(r.id()).topology(r.topology()).tasks(r.tasks())
                .failure(r.failedHost(), r.lastHeartbeat(), r.detectedAt()).detection(r.detectionMillis(), null)
                .restoration(new Recovery.Restoration(null, r.epoch() + 1, 7L, r.sinkRecordsTarget(), null))
                .timings(new Recovery.Timings(r.detectedAt().plusSeconds(2), r.detectedAt().plusSeconds(3), 2000L,
                        1000L))
                .status(RecoveryStatus.RECOVERED, null, "redeployed").build();
    }
}
