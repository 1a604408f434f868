package io.steadfast.checkpoint.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointRejectedException.Reason;
import io.steadfast.checkpoint.snapshot.MongoSnapshotStore;
import io.steadfast.checkpoint.store.EmbeddedStoreOverTcp;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A checkpoint takes each task's snapshot only from the incarnation of the task it was triggered for: a copy that a
 * newer one superseded (frozen, declared dead, then resumed) cannot store a snapshot, nor can a copy recovered after
 * the trigger. A checkpoint created without incarnations expects incarnation 0 of every task.
 */
@Timeout(60)
class SnapshotIncarnationsIT {

    private static final TopologyId TOPOLOGY = new TopologyId("fenced");
    private static final TaskId SOURCE = TaskId.parse("fenced/source#0");
    private static final TaskId COUNT = TaskId.parse("fenced/count#0");
    private static final CheckpointId FIRST = new CheckpointId(1);

    @RegisterExtension
    static final EmbeddedStoreOverTcp STORE = new EmbeddedStoreOverTcp();

    private CheckpointLifecycle lifecycle;

    @BeforeEach
    void openStores() {
        MongoDatabase database = STORE.freshDatabase("incarnations");
        lifecycle = new CheckpointLifecycle(new MongoCheckpointStore(STORE.records(database), () -> { }),
                new MongoSnapshotStore(database, 64 * 1024, () -> { }, Clock.systemUTC()), new RetentionPolicy(1),
                new CheckpointMeters(new SimpleMeterRegistry()), Clock.systemUTC());
    }

    @Test
    void refusesTheSnapshotOfASupersededIncarnationNamingTheTaskAndBothIncarnations() {
        lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE, COUNT), Map.of(COUNT, 2), null);

        assertThatThrownBy(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, COUNT, 1))
                .isInstanceOfSatisfying(CheckpointRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.SUPERSEDED_INCARNATION);
                    assertThat(e.tasks()).containsExactly(COUNT);
                    assertThat(e.getMessage()).contains("'fenced/count#0'", "incarnation 2", "incarnation 1",
                            "newer copy of the task took over");
                });
        assertThatThrownBy(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, Map.of(SOURCE, 0, COUNT, 1)))
                .as("one superseded snapshot in a group").isInstanceOf(CheckpointRejectedException.class);
        assertThatCode(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, Map.of(SOURCE, 0, COUNT, 2)))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesTheSnapshotOfACopyRecoveredAfterTheTrigger() {
        lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE, COUNT), Map.of(COUNT, 2), null);

        assertThatThrownBy(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, COUNT, 3))
                .isInstanceOfSatisfying(CheckpointRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.NEWER_INCARNATION);
                    assertThat(e.getMessage()).contains("recovered after the checkpoint was triggered");
                });
    }

    @Test
    void aCheckpointCreatedWithoutIncarnationsExpectsTheFirstOfEveryTask() {
        lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE, COUNT), Map.of(), null);

        assertThatCode(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, COUNT, 0)).doesNotThrowAnyException();
        assertThatThrownBy(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, COUNT, 1))
                .isInstanceOfSatisfying(CheckpointRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.NEWER_INCARNATION));
        assertThat(lifecycle.get(TOPOLOGY, FIRST).expectedIncarnations()).isEmpty();
    }

    @Test
    void aClosedCheckpointIsReportedAsSuchWhateverTheIncarnation() {
        lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE), Map.of(SOURCE, 1), null);
        lifecycle.fail(TOPOLOGY, FIRST, new CheckpointFailure(CheckpointFailureReason.CANCELLED, "recovery"));

        assertThatThrownBy(() -> lifecycle.requireSnapshotsWritable(TOPOLOGY, FIRST, SOURCE, 0))
                .isInstanceOfSatisfying(CheckpointRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.NOT_PENDING));
    }

    @Test
    void refusesIncarnationsOfTasksNotInTheCheckpointOrBelowZero() {
        assertThatThrownBy(() -> lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE), Map.of(COUNT, 1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'fenced/count#0'");
        assertThatThrownBy(() -> lifecycle.create(TOPOLOGY, FIRST, List.of(SOURCE), Map.of(SOURCE, -1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("incarnation -1");
    }
}
