package io.steadfast.router.config;

import io.steadfast.router.leadership.Leadership;
import io.steadfast.router.recovery.MongoRecoveryStore;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.WriteBehindRecoveryStore;
import io.steadfast.router.store.RecordsNotLoadedException;
import io.steadfast.router.store.WriteBehind;
import io.steadfast.router.topology.MongoTopologyRepository;
import io.steadfast.router.topology.WriteBehindTopologyRepository;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The router's records when it has a MongoDB: topologies and recoveries in memory, which every read uses, written
 * behind to MongoDB (see {@link WriteBehindTopologyRepository}, {@link WriteBehindRecoveryStore}). Both are loaded
 * when this is made, or in the background if MongoDB cannot be reached then; until both are, the router's topology
 * and recovery API answers 503 (see {@link RouterMongoConfiguration}).
 */
final class MongoRouterRecords implements AutoCloseable {

    private final String storeName;
    private final WriteBehind.Settings settings;
    private final WriteBehindTopologyRepository topologies;
    private final WriteBehindRecoveryStore recoveryStore;
    private final RecoveryLog recoveryLog;

    /** @param leadership whether this router leads: the records are written only while it does */
    MongoRouterRecords(MongoTemplate mongo, WriteBehind.Settings settings, Clock clock, Leadership leadership) {
        storeName = "MongoDB database '" + mongo.getDb().getName() + "'";
        this.settings = settings;
        topologies = new WriteBehindTopologyRepository(new MongoTopologyRepository(mongo), storeName, settings,
                clock, leadership::isLeading);
        recoveryStore = new WriteBehindRecoveryStore(new MongoRecoveryStore(mongo), storeName, settings, clock,
                leadership::isLeading);
        recoveryLog = new RecoveryLog(recoveryStore);
        topologies.load();
        recoveryStore.load(recoveryLog::restore);
    }

    String storeName() {
        return storeName;
    }

    WriteBehindTopologyRepository topologies() {
        return topologies;
    }

    RecoveryLog recoveryLog() {
        return recoveryLog;
    }

    List<WriteBehind.Status> statuses() {
        return List.of(topologies.status(), recoveryStore.status());
    }

    boolean loaded() {
        return statuses().stream().allMatch(WriteBehind.Status::loaded);
    }

    /** @throws RecordsNotLoadedException naming the first kind of records not loaded yet, if any */
    void requireLoaded() {
        for (WriteBehind.Status status : statuses()) {
            if (!status.loaded()) {
                throw new RecordsNotLoadedException(status.records(), storeName, settings.retryInterval(),
                        status.lastError());
            }
        }
    }

    /** Runs {@code action} once topologies and recoveries are both loaded: now if they are. */
    void whenLoaded(Runnable action) {
        AtomicInteger waiting = new AtomicInteger(2);
        Runnable oneLoaded = () -> {
            if (waiting.decrementAndGet() == 0) {
                action.run();
            }
        };
        topologies.whenLoaded(oneLoaded);
        recoveryStore.whenLoaded(oneLoaded);
    }

    @Override
    public void close() {
        topologies.close();
        recoveryStore.close();
    }
}
