package io.steadfast.checkpoint.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class CheckpointPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(CheckpointProperties.class)
    static class Bind {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
            .withUserConfiguration(Bind.class);

    @Test
    void hasDefaults() {
        runner.run(context -> {
            CheckpointProperties properties = context.getBean(CheckpointProperties.class);
            assertThat(properties.embedded().storeFile()).isEqualTo(Path.of(".steadfast/checkpoint-store/store.mv"));
            assertThat(properties.embedded().port()).isZero();
            assertThat(properties.snapshots().chunkSize()).isEqualTo(DataSize.ofMegabytes(4));
            assertThat(properties.snapshots().cacheSize()).isEqualTo(DataSize.ofMegabytes(64));
            assertThat(properties.retention().completed()).isEqualTo(3);
            assertThat(properties.database()).isEqualTo("steadfast");
            assertThat(properties.replayLogs().maxSegmentSize()).isEqualTo(DataSize.ofMegabytes(8));
            assertThat(properties.replayLogs().maxBatchSize()).isEqualTo(DataSize.ofMegabytes(64));
        });
    }

    @Test
    void rejectsReplayLogLimitsThatCannotWorkNamingTheKeys() {
        runner.withPropertyValues("steadfast.checkpoint.replay-logs.max-segment-size=16MB").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.checkpoint.replay-logs.max-segment-size")
                        .hasMessageContaining("15MB"));
        runner.withPropertyValues("steadfast.checkpoint.replay-logs.max-batch-size=1MB").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.checkpoint.replay-logs.max-batch-size (1048576B) is below")
                        .hasMessageContaining("max-segment-size (8388608B)"));
    }

    @Test
    void rejectsAChunkSizeTheEmbeddedServerCannotStoreNamingTheKey() {
        runner.withPropertyValues("steadfast.checkpoint.snapshots.chunk-size=64MB").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.checkpoint.snapshots.chunk-size").hasMessageContaining("15MB"));
    }

    @Test
    void rejectsANegativeSnapshotCacheNamingTheKey() {
        runner.withPropertyValues("steadfast.checkpoint.snapshots.cache-size=-1MB").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.checkpoint.snapshots.cache-size")
                        .hasMessageContaining("use 0"));
        runner.withPropertyValues("steadfast.checkpoint.snapshots.cache-size=0").run(context ->
                assertThat(context.getBean(CheckpointProperties.class).snapshots().cacheSize().toBytes()).isZero());
    }

    @Test
    void rejectsKeepingNoCompletedCheckpoint() {
        runner.withPropertyValues("steadfast.checkpoint.retention.completed=0").run(context ->
                assertThat(context).getFailure().hasStackTraceContaining("retention.completed"));
    }
}
