package io.steadfast.checkpoint.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes snapshots one entry after another in the batch format {@link SnapshotBatchReader} reads (a task id and the
 * snapshot's bytes, each with its length before it), streaming each snapshot from the store. Not thread-safe.
 */
public final class SnapshotBatchWriter {

    private final DataOutputStream out;

    public SnapshotBatchWriter(OutputStream out) {
        this.out = new DataOutputStream(out);
    }

    /** Writes one entry: {@code task}'s stored snapshot. */
    public void write(TaskId task, SnapshotContent content) throws IOException {
        byte[] id = task.toString().getBytes(StandardCharsets.UTF_8);
        out.writeInt(id.length);
        out.write(id);
        out.writeLong(content.snapshot().sizeBytes());
        content.transferTo(out);
    }

    public void flush() throws IOException {
        out.flush();
    }
}
