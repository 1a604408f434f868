package io.steadfast.checkpoint.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.snapshot.MongoSnapshotStore;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.checkpoint.snapshot.SnapshotUpload;
import io.steadfast.checkpoint.store.EmbeddedStoreOverTcp;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retention runs after a completion, on the executor the lifecycle is given, not within it: the completion is
 * answered with the older checkpoints still there, and completions that come while a run waits share it.
 */
@Timeout(60)
class RetentionAfterCompletionIT {

    private static final TopologyId TOPOLOGY = new TopologyId("retained");
    private static final TaskId TASK = TaskId.parse("retained/count#0");

    @RegisterExtension
    static final EmbeddedStoreOverTcp STORE = new EmbeddedStoreOverTcp();

    private final Queue<Runnable> runs = new ArrayDeque<>();
    private CheckpointLifecycle lifecycle;
    private SnapshotStore snapshots;
    private CheckpointStore checkpoints;

    @BeforeEach
    void openStores() {
        MongoDatabase database = STORE.freshDatabase("retention");
        snapshots = new MongoSnapshotStore(database, 64 * 1024, () -> { }, Clock.systemUTC());
        checkpoints = new MongoCheckpointStore(STORE.records(database), () -> { });
        lifecycle = new CheckpointLifecycle(checkpoints, snapshots, new RetentionPolicy(1),
                new CheckpointMeters(new SimpleMeterRegistry()), Clock.systemUTC(), runs::add);
    }

    private void complete(long checkpoint) {
        CheckpointId id = new CheckpointId(checkpoint);
        lifecycle.create(TOPOLOGY, id, List.of(TASK), Map.of(), null);
        snapshots.putAll(List.of(new SnapshotUpload(SnapshotKey.of(TOPOLOGY, id, TASK), new byte[] {(byte) checkpoint})));
        lifecycle.completeWithAcks(TOPOLOGY, id, List.of(new CheckpointLifecycle.AckRequest(TASK, 1L, 0, 5)));
    }

    private List<Long> recorded() {
        return lifecycle.list(TOPOLOGY).stream().map(record -> record.checkpointId().value()).sorted().toList();
    }

    @Test
    void completionsAreAnsweredBeforeRetentionAndShareOneWaitingRun() {
        complete(1);
        assertThat(runs).hasSize(1);
        runs.poll().run();

        complete(2);
        complete(3);

        assertThat(recorded()).as("nothing deleted before the run").containsExactly(1L, 2L, 3L);
        assertThat(runs).as("one run for both completions").hasSize(1);
        runs.poll().run();
        assertThat(recorded()).containsExactly(3L);
        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(2))).isEmpty();
        assertThat(snapshots.list(TOPOLOGY, new CheckpointId(3))).hasSize(1);

        complete(4);
        assertThat(runs).as("a new run once the last one started").hasSize(1);
    }
}
