package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.client.CheckpointView;
import io.steadfast.cluster.client.CheckpointsView;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointLineTest {

    @Test
    void showsTheLatestCompletedCheckpointWithDurationSizeAndCounts() {
        CheckpointsView view = new CheckpointsView("word-count", 11L, List.of(
                new CheckpointView(13, "PENDING", null, null, null, 0, null, null),
                new CheckpointView(12, "FAILED", null, null, null, 0, "TIMEOUT", "task did not ack"),
                new CheckpointView(11, "COMPLETED", null, null, 85L, 1_258_291, null, null),
                new CheckpointView(10, "COMPLETED", null, null, 90L, 1_000, null, null)));

        assertThat(CheckpointLine.format(view)).isEqualToIgnoringNewLines(
                "  checkpoint 11 COMPLETED in 85 ms, 1.2 MiB (kept: 2 completed, 1 failed, 1 pending); last failed: 12 TIMEOUT");
    }

    @Test
    void saysSoBeforeTheFirstCheckpointCompletes() {
        assertThat(CheckpointLine.format(new CheckpointsView("t", null, List.of())))
                .contains("no completed checkpoint yet (kept: 0 completed, 0 failed, 0 pending)");
    }

    @Test
    void formatsSizes() {
        assertThat(CheckpointLine.bytes(512)).isEqualTo("512 B");
        assertThat(CheckpointLine.bytes(2048)).isEqualTo("2.0 KiB");
    }
}
