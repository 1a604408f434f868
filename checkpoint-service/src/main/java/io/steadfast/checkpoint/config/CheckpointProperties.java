package io.steadfast.checkpoint.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the checkpoint service, prefix {@code steadfast.checkpoint}. Whether the embedded store runs is not a
 * property of its own: it runs exactly when {@code spring.mongodb.uri} is not set.
 *
 * @param database the MongoDB database that holds snapshots and checkpoint records
 * @param embedded the embedded MongoDB-wire server used when no {@code spring.mongodb.uri} is configured
 * @param snapshots how snapshots are stored
 * @param retention which checkpoints are kept
 * @param replayLogs limits of the replay-log uploads
 * @param health the store health check
 */
@Validated
@ConfigurationProperties("steadfast.checkpoint")
public record CheckpointProperties(
        @NotBlank @DefaultValue("steadfast") String database,
        @Valid @NotNull @DefaultValue Embedded embedded,
        @Valid @NotNull @DefaultValue Snapshots snapshots,
        @Valid @NotNull @DefaultValue Retention retention,
        @Valid @NotNull @DefaultValue ReplayLogs replayLogs,
        @Valid @NotNull @DefaultValue Health health) {

    /**
     * The embedded store: a MongoDB-wire server (mongo-java-server) keeping its data in one H2 file.
     *
     * @param dataDir directory of the store file {@code store.mv}; one process at a time can use it
     * @param bindAddress address the server listens on
     * @param port port the server listens on; 0 picks a free one (the connection string is logged)
     */
    public record Embedded(
            @NotNull @DefaultValue(".steadfast/checkpoint-store") Path dataDir,
            @NotBlank @DefaultValue("127.0.0.1") String bindAddress,
            @Min(0) @Max(65535) @DefaultValue("0") int port) {

        /** The H2 file inside {@link #dataDir()}. */
        public Path storeFile() {
            return dataDir.resolve("store.mv");
        }
    }

    /**
     * Snapshot storage.
     *
     * @param chunkSize size of the chunks a snapshot is split into, one document each; between 64KB and 15MB
     *                  (the embedded server handles binary fields up to about 15 MiB)
     * @param cacheSize the most bytes of the snapshots stored last kept in memory as well, for recoveries (which
     *                  read the latest completed checkpoint); 0 keeps none
     */
    public record Snapshots(@NotNull @DefaultValue("4MB") DataSize chunkSize,
                            @NotNull @DefaultValue("64MB") DataSize cacheSize) {

        private static final DataSize MIN_CHUNK = DataSize.ofKilobytes(64);
        private static final DataSize MAX_CHUNK = DataSize.ofMegabytes(15);

        public Snapshots {
            if (chunkSize != null && (chunkSize.compareTo(MIN_CHUNK) < 0 || chunkSize.compareTo(MAX_CHUNK) > 0)) {
                throw new IllegalArgumentException("steadfast.checkpoint.snapshots.chunk-size is " + chunkSize
                        + "; use a size between 64KB and 15MB, e.g. 4MB");
            }
            if (cacheSize != null && cacheSize.isNegative()) {
                throw new IllegalArgumentException("steadfast.checkpoint.snapshots.cache-size is " + cacheSize
                        + "; use 0 to keep no snapshots in memory, or a size such as 64MB");
            }
        }
    }

    /**
     * Retention.
     *
     * @param completed how many completed checkpoints to keep per topology; when one completes, older completed
     *                  ones beyond this number, and failed or pending ones older than it, are deleted with their
     *                  snapshots
     */
    public record Retention(@Min(1) @DefaultValue("3") int completed) {
    }

    /**
     * Replay-log uploads ({@code POST /api/v1/replay-logs/{topology}/segments}).
     *
     * @param maxSegmentSize the largest segment accepted, stored as one document; between 1KB and 15MB (the
     *                       embedded server handles binary fields up to about 15 MiB)
     * @param maxBatchSize   the most frame bytes one upload may carry (it is held in memory while it is stored); at
     *                       least {@code max-segment-size}
     */
    public record ReplayLogs(@NotNull @DefaultValue("8MB") DataSize maxSegmentSize,
                             @NotNull @DefaultValue("64MB") DataSize maxBatchSize) {

        private static final DataSize MIN_SEGMENT = DataSize.ofKilobytes(1);
        private static final DataSize MAX_SEGMENT = DataSize.ofMegabytes(15);

        public ReplayLogs {
            if (maxSegmentSize != null && (maxSegmentSize.compareTo(MIN_SEGMENT) < 0
                    || maxSegmentSize.compareTo(MAX_SEGMENT) > 0)) {
                throw new IllegalArgumentException("steadfast.checkpoint.replay-logs.max-segment-size is "
                        + maxSegmentSize + "; use a size between 1KB and 15MB, e.g. 8MB");
            }
            if (maxSegmentSize != null && maxBatchSize != null && maxBatchSize.compareTo(maxSegmentSize) < 0) {
                throw new IllegalArgumentException("steadfast.checkpoint.replay-logs.max-batch-size (" + maxBatchSize
                        + ") is below steadfast.checkpoint.replay-logs.max-segment-size (" + maxSegmentSize
                        + "); raise max-batch-size so that an upload can carry the largest segment");
            }
        }
    }

    /**
     * The store health check ({@code {ping: 1}}).
     *
     * @param timeout how long the ping may take before the store is reported DOWN
     */
    public record Health(@NotNull @DefaultValue("2s") Duration timeout) {

        public Health {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("steadfast.checkpoint.health.timeout must be positive, was "
                        + timeout + "; use e.g. 2s");
            }
        }
    }
}
