package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.TaskId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The checkpoint-service's batch of snapshots, as it answers {@code GET .../batch} and takes {@code POST .../batch}:
 * entries one after another, each a big-endian int32 length and the UTF-8 task id, then an int64 length and the
 * snapshot's bytes. An upload starts with the int32 header {@value #WITH_INCARNATIONS} and gives each entry, after its
 * task id, the int32 incarnation of the copy of the task that took it.
 */
final class SnapshotBatch {

    /** The longest task id the checkpoint-service writes, in UTF-8 bytes. */
    private static final int MAX_TASK_ID_BYTES = 1024;
    /** The header of a batch whose entries carry their incarnation ("SFS2"). */
    private static final int WITH_INCARNATIONS = 0x53465332;

    private SnapshotBatch() {
    }

    /**
     * The snapshots in the batch format with their incarnations, in the map's order, as the checkpoint-service takes a
     * batch upload.
     */
    static byte[] write(Map<TaskId, TakenSnapshot> snapshots) {
        long size = 4 + snapshots.values().stream().mapToLong(snapshot -> snapshot.bytes().length + 64L).sum();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(size, Integer.MAX_VALUE - 8));
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeInt(WITH_INCARNATIONS);
            for (Map.Entry<TaskId, TakenSnapshot> entry : snapshots.entrySet()) {
                byte[] id = entry.getKey().toString().getBytes(StandardCharsets.UTF_8);
                out.writeInt(id.length);
                out.write(id);
                out.writeInt(entry.getValue().incarnation());
                out.writeLong(entry.getValue().bytes().length);
                out.write(entry.getValue().bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not thrown by a ByteArrayOutputStream
        }
        return bytes.toByteArray();
    }

    /**
     * @param from where the batch came from, for the error message
     * @throws SnapshotStoreException if the batch is cut short or malformed
     */
    static Map<TaskId, byte[]> read(byte[] batch, URI from) {
        Map<TaskId, byte[]> snapshots = new LinkedHashMap<>();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(batch));
        try {
            while (in.available() > 0) {
                int idLength = in.readInt();
                if (idLength < 1 || idLength > MAX_TASK_ID_BYTES) {
                    throw new IOException("entry " + snapshots.size() + " declares a task id of " + idLength + " bytes");
                }
                byte[] id = new byte[idLength];
                in.readFully(id);
                TaskId task = TaskId.parse(new String(id, StandardCharsets.UTF_8));
                long length = in.readLong();
                if (length < 0 || length > in.available()) {
                    throw new EOFException("entry " + snapshots.size() + " (" + task + ") declares " + length
                            + " bytes, " + in.available() + " are left");
                }
                byte[] snapshot = new byte[(int) length];
                in.readFully(snapshot);
                snapshots.put(task, snapshot);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new SnapshotStoreException("Checkpoint-service at " + from + " sent a malformed batch of snapshots ("
                    + e.getMessage() + "); asking again", e);
        }
        return snapshots;
    }
}
