package io.steadfast.checkpoint.config;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.checkpoint.CheckpointMeters;
import io.steadfast.checkpoint.checkpoint.CheckpointRecordsMapping;
import io.steadfast.checkpoint.checkpoint.CheckpointStore;
import io.steadfast.checkpoint.checkpoint.MongoCheckpointStore;
import io.steadfast.checkpoint.checkpoint.RetentionPolicy;
import io.steadfast.checkpoint.replaylog.MongoReplayLogStore;
import io.steadfast.checkpoint.replaylog.ReplayLogMeters;
import io.steadfast.checkpoint.replaylog.ReplayLogStore;
import io.steadfast.checkpoint.snapshot.CachingSnapshotStore;
import io.steadfast.checkpoint.snapshot.MongoSnapshotStore;
import io.steadfast.checkpoint.snapshot.SnapshotMeters;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.checkpoint.store.StoreDurability;
import io.steadfast.runtime.concurrent.DaemonThreads;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the stores and the checkpoint lifecycle over the database: checkpoint records through Spring Data
 * ({@link CheckpointRecordsMapping}), snapshot chunks and replay-log segments through the driver (docs/design.md,
 * "Storage: Spring Data for records, the driver for snapshot chunks").
 */
@Configuration(proxyBeanMethods = false)
class CheckpointServiceConfiguration implements DisposableBean {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    SnapshotStore snapshotStore(MongoDatabase database, CheckpointProperties properties, StoreDurability durability,
            Clock clock) {
        return new CachingSnapshotStore(new MongoSnapshotStore(database,
                Math.toIntExact(properties.snapshots().chunkSize().toBytes()), durability, clock),
                properties.snapshots().cacheSize().toBytes());
    }

    @Bean
    CheckpointStore checkpointStore(MongoClient client, CheckpointProperties properties, StoreDurability durability) {
        return new MongoCheckpointStore(CheckpointRecordsMapping.template(client, properties.database()), durability);
    }

    /**
     * Runs retention after each completed checkpoint, on one thread ({@code steadfast-checkpoint-retention}); not a
     * bean, which would take the place of the application's task executor.
     */
    private final ExecutorService retentionRuns =
            Executors.newSingleThreadExecutor(new DaemonThreads("steadfast-checkpoint-retention"));

    @Bean
    CheckpointLifecycle checkpointLifecycle(CheckpointStore checkpoints, SnapshotStore snapshots,
            CheckpointProperties properties, MeterRegistry registry, Clock clock) {
        return new CheckpointLifecycle(checkpoints, snapshots, new RetentionPolicy(properties.retention().completed()),
                new CheckpointMeters(registry), clock, retentionRuns);
    }

    @Override
    public void destroy() {
        retentionRuns.shutdown();
    }

    @Bean
    SnapshotMeters snapshotMeters(MeterRegistry registry) {
        return new SnapshotMeters(registry);
    }

    @Bean
    ReplayLogStore replayLogStore(MongoDatabase database, StoreDurability durability, Clock clock) {
        return new MongoReplayLogStore(database, durability, clock);
    }

    @Bean
    ReplayLogMeters replayLogMeters(MeterRegistry registry) {
        return new ReplayLogMeters(registry);
    }
}
