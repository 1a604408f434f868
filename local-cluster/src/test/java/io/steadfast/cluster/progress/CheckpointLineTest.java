package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointLineTest {

    @Test
    void showsTheLatestCompletedCheckpointWithDurationSizeAndCounts() {
        TopologyCheckpoints view = new TopologyCheckpoints(new TopologyId("word-count"), CheckpointId.of(11), null,
                List.of(checkpoint(13, "PENDING", null, 0, null, null),
                        checkpoint(12, "FAILED", null, 0, "TIMEOUT", "task did not ack"),
                        checkpoint(11, "COMPLETED", 85L, 1_258_291, null, null),
                        checkpoint(10, "COMPLETED", 90L, 1_000, null, null)));

        assertThat(CheckpointLine.format(view)).isEqualToIgnoringNewLines(
                "  checkpoint 11 COMPLETED in 85 ms, 1.2 MiB (kept: 2 completed, 1 failed, 1 pending); last failed: 12 TIMEOUT");
    }

    @Test
    void saysSoBeforeTheFirstCheckpointCompletes() {
        assertThat(CheckpointLine.format(new TopologyCheckpoints(new TopologyId("t"), null, null, List.of())))
                .contains("no completed checkpoint yet (kept: 0 completed, 0 failed, 0 pending)");
    }

    @Test
    void formatsSizes() {
        assertThat(CheckpointLine.bytes(512)).isEqualTo("512 B");
        assertThat(CheckpointLine.bytes(2048)).isEqualTo("2.0 KiB");
    }

    private static CheckpointSummary checkpoint(long id, String status, Long durationMillis, long sizeBytes,
                                                String failureReason, String failureMessage) {
        return new CheckpointSummary(CheckpointId.of(id), status, Instant.EPOCH, null, durationMillis, sizeBytes,
                failureReason, failureMessage);
    }
}
