package io.steadfast.runtime.task;

import io.steadfast.runtime.codec.RecordBatchWriter;
import java.util.List;

/**
 * Carries determinants in the frames of one output channel whose receiver runs on another host: the sending
 * task's own, and those of its upstream tasks on the same host (which would be lost with it), each from where
 * this channel last left off. Whoever receives the task's output then holds every decision that output depends
 * on. Task thread only.
 */
public final class DeterminantForwarder {

    /** A log to forward: its task's index in the plan, the log, and the offset to start from. */
    public record Origin(int taskIndex, DeterminantLog log, long startOffset) {
    }

    private final Origin[] origins;
    private final long[] cursors;

    public DeterminantForwarder(List<Origin> origins) {
        this.origins = origins.toArray(Origin[]::new);
        this.cursors = new long[this.origins.length];
        for (int i = 0; i < this.origins.length; i++) {
            cursors[i] = this.origins[i].startOffset();
        }
    }

    /** Adds what each log gained since this channel's last frame. */
    void appendTo(RecordBatchWriter batch) {
        for (int i = 0; i < origins.length; i++) {
            DeterminantLog.Slice slice = origins[i].log().readFrom(cursors[i]);
            if (slice.bytes().length > 0 || slice.from() > cursors[i]) {
                batch.addDeterminants(origins[i].taskIndex(), slice.base(), slice.from(), slice.bytes());
            }
            cursors[i] = slice.from() + slice.bytes().length;
        }
    }
}
