package io.steadfast.checkpoint.web;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** JSON bodies of the checkpoint API; ids arrive as text and are checked by {@link RequestIds}. */
final class CheckpointRequests {

    private CheckpointRequests() {
    }

    /**
     * {@code POST /api/v1/checkpoints/{topology}}; {@code triggeredAt} defaults to now, and {@code incarnations}
     * gives the incarnation of a task whose snapshot the checkpoint takes where it is not 0.
     */
    record Create(@Nullable Long checkpointId, @Nullable List<String> tasks,
            @Nullable Map<String, Integer> incarnations, @Nullable Instant triggeredAt) {
    }

    /** {@code PUT .../{checkpointId}/acks}; {@code sizeBytes}, when given, must equal the stored snapshot's size. */
    record Ack(@Nullable String task, @Nullable Long sizeBytes, @Nullable Long syncMillis,
            @Nullable Long asyncMillis) {
    }

    /** {@code POST .../{checkpointId}/complete}, optional: the acks to record with the completion. */
    record Complete(@Nullable List<Ack> acks) {
    }

    /** {@code POST .../{checkpointId}/fail}. */
    record Fail(@Nullable String reason, @Nullable String message) {
    }
}
