package io.steadfast.checkpoint.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {

    private static CheckpointRecord record(long id, CheckpointStatus status) {
        CheckpointRecord pending = CheckpointRecord.pending(new TopologyId("t"), new CheckpointId(id),
                List.of(TaskId.parse("t/a#0")), Map.of(), Instant.EPOCH);
        return new CheckpointRecord(pending.topology(), pending.checkpointId(), status, pending.timing(), 0,
                pending.expected(), List.of(), null);
    }

    @Test
    void keepsTheNewestCompletedAndCutsBelowTheNewestCompleted() {
        List<CheckpointRecord> records = List.of(record(7, CheckpointStatus.PENDING),
                record(6, CheckpointStatus.COMPLETED), record(5, CheckpointStatus.FAILED),
                record(4, CheckpointStatus.COMPLETED), record(3, CheckpointStatus.COMPLETED),
                record(2, CheckpointStatus.PENDING));

        RetentionPolicy.Cut cut = new RetentionPolicy(2).cut(records).orElseThrow();

        assertThat(cut.before()).isEqualTo(new CheckpointId(6));
        assertThat(cut.keep()).isEqualTo(Set.of(new CheckpointId(6), new CheckpointId(4)));
    }

    @Test
    void cutsNothingBeforeAnyCheckpointCompleted() {
        assertThat(new RetentionPolicy(3).cut(List.of(record(1, CheckpointStatus.FAILED),
                record(2, CheckpointStatus.PENDING)))).isEmpty();
    }

    @Test
    void refusesToKeepFewerThanOne() {
        assertThatThrownBy(() -> new RetentionPolicy(0)).hasMessageContaining("retention.completed");
    }
}
