package io.steadfast.checkpoint.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.CheckpointServiceApplication;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/** The embedded store keeps its data in the H2 file across a restart, and one file serves one service only. */
@Timeout(180)
class RestartAndLockIT {

    private static final TopologyId TOPOLOGY = new TopologyId("restart");
    private static final TaskId TASK = TaskId.parse("restart/count#0");

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(CheckpointServiceApplication.class)
                .run("--server.port=0", "--steadfast.checkpoint.embedded.data-dir=" + dataDir,
                        "--spring.main.banner-mode=off");
    }

    private static byte[] read(SnapshotStore store, SnapshotKey key) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        store.open(key).orElseThrow().transferTo(out);
        return out.toByteArray();
    }

    @Test
    void readsBackSnapshotsAndCompletedCheckpointsAfterARestart() throws Exception {
        byte[] bytes = new byte[9 * 1024 * 1024 + 3];
        new Random(7).nextBytes(bytes);
        SnapshotKey key = SnapshotKey.of(TOPOLOGY, new CheckpointId(4), TASK);
        try (ConfigurableApplicationContext first = start()) {
            first.getBean(SnapshotStore.class).put(key, new ByteArrayInputStream(bytes));
            CheckpointLifecycle lifecycle = first.getBean(CheckpointLifecycle.class);
            lifecycle.create(TOPOLOGY, new CheckpointId(4), List.of(TASK), Map.of(), null);
            lifecycle.ack(TOPOLOGY, new CheckpointId(4), TASK, (long) bytes.length, 1, 2);
            lifecycle.complete(TOPOLOGY, new CheckpointId(4));
        }
        assertThat(dataDir.resolve("store.mv")).exists();

        try (ConfigurableApplicationContext second = start()) {
            CheckpointRecord latest = second.getBean(CheckpointLifecycle.class).latestCompleted(TOPOLOGY)
                    .orElseThrow();
            assertThat(latest.checkpointId()).isEqualTo(new CheckpointId(4));
            assertThat(latest.status()).isEqualTo(CheckpointStatus.COMPLETED);
            assertThat(latest.sizeBytes()).isEqualTo(bytes.length);
            assertThat(read(second.getBean(SnapshotStore.class), key)).isEqualTo(bytes);
        }
    }

    @Test
    void refusesToStartOnAStoreFileAnotherServiceHoldsAndSaysWhatToDo() {
        try (ConfigurableApplicationContext first = start()) {
            assertThatThrownBy(this::start)
                    .satisfies(failure -> {
                        Throwable cause = failure;
                        while (cause != null && !(cause instanceof CheckpointStoreLockedException)) {
                            cause = cause.getCause();
                        }
                        assertThat(cause).isInstanceOf(CheckpointStoreLockedException.class);
                        FailureAnalysis analysis = new CheckpointStoreLockedFailureAnalyzer().analyze(failure);
                        assertThat(analysis.getDescription()).contains("Another checkpoint-service uses",
                                dataDir.resolve("store.mv").toAbsolutePath().toString());
                        assertThat(analysis.getAction()).contains("steadfast.checkpoint.embedded.data-dir");
                    });
            assertThat(first.isActive()).isTrue();
        }
        assertThat(Files.exists(dataDir.resolve("store.mv"))).isTrue();
    }

    @Test
    void usesTheConfiguredMongoUriAndStartsNoEmbeddedServer() {
        // nothing listens on port 1: the start fails creating indexes through the driver, not in the embedded store
        assertThatThrownBy(() -> new SpringApplicationBuilder(CheckpointServiceApplication.class)
                .run("--server.port=0", "--spring.main.banner-mode=off",
                        "--spring.mongodb.uri=mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200",
                        "--steadfast.checkpoint.embedded.data-dir=" + dataDir))
                .satisfies(failure -> {
                    Throwable cause = failure;
                    while (cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    assertThat(cause.getClass().getName()).startsWith("com.mongodb");
                    assertThat(cause.getMessage()).contains("127.0.0.1:1");
                });
        assertThat(dataDir.resolve("store.mv")).doesNotExist();
    }
}
