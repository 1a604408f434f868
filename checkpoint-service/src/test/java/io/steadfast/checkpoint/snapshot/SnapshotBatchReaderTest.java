package io.steadfast.checkpoint.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SnapshotBatchReaderTest {

    private static byte[] batch(Object... taskAndContent) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (int i = 0; i < taskAndContent.length; i += 2) {
            writeEntry(out, (String) taskAndContent[i], null, (byte[]) taskAndContent[i + 1]);
        }
        return bytes.toByteArray();
    }

    /** One entry; with an {@code incarnation} as a batch after the header has it. */
    private static void writeEntry(DataOutputStream out, String task, Integer incarnation, byte[] content)
            throws IOException {
        byte[] id = task.getBytes(StandardCharsets.UTF_8);
        out.writeInt(id.length);
        out.write(id);
        if (incarnation != null) {
            out.writeInt(incarnation);
        }
        out.writeLong(content.length);
        out.write(content);
    }

    @Test
    void readsEntriesInOrderAndSkipsWhatTheCallerDidNotRead() throws IOException {
        SnapshotBatchReader reader = new SnapshotBatchReader(new ByteArrayInputStream(batch(
                "t/a#0", new byte[] {1, 2, 3}, "t/a#1", new byte[0], "t/b#0", new byte[] {9})));

        SnapshotBatchReader.Entry first = reader.next();
        assertThat(first.taskId()).isEqualTo("t/a#0");
        assertThat(first.length()).isEqualTo(3);
        assertThat(first.content().read()).isEqualTo(1);
        SnapshotBatchReader.Entry second = reader.next();
        assertThat(second.taskId()).isEqualTo("t/a#1");
        assertThat(second.content().readAllBytes()).isEmpty();
        SnapshotBatchReader.Entry third = reader.next();
        assertThat(third.index()).isEqualTo(2);
        assertThat(third.content().readAllBytes()).containsExactly(9);
        assertThat(reader.next()).isNull();
    }

    /** A batch with the header, one entry of {@code task} taken by its copy of {@code incarnation}. */
    private static byte[] batchWithIncarnation(String task, int incarnation, byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(SnapshotBatchReader.MAGIC_WITH_INCARNATIONS);
        writeEntry(out, task, incarnation, content);
        return bytes.toByteArray();
    }

    @Test
    void readsEachEntrysIncarnationAfterTheHeaderAndIncarnationZeroWithoutIt() throws IOException {
        SnapshotBatchReader.Entry withHeader = new SnapshotBatchReader(new ByteArrayInputStream(
                batchWithIncarnation("t/a#1", 2, new byte[] {4, 5}))).next();
        SnapshotBatchReader.Entry without = new SnapshotBatchReader(new ByteArrayInputStream(
                batch("t/a#1", new byte[] {4, 5}))).next();

        assertThat(withHeader.index()).isZero();
        assertThat(withHeader.taskId()).isEqualTo("t/a#1");
        assertThat(withHeader.incarnation()).isEqualTo(2);
        assertThat(withHeader.content().readAllBytes()).containsExactly(4, 5);
        assertThat(without.incarnation()).isZero();
        assertThatThrownBy(() -> new SnapshotBatchReader(new ByteArrayInputStream(
                batchWithIncarnation("t/a#1", -1, new byte[0]))).next())
                .isInstanceOf(SnapshotBatchFormatException.class).hasMessageContaining("incarnation -1");
    }

    @Test
    void anEmptyBodyIsAnEmptyBatch() throws IOException {
        assertThat(new SnapshotBatchReader(new ByteArrayInputStream(new byte[0])).next()).isNull();
    }

    @Test
    void rejectsABatchThatEndsInsideAnEntry() throws IOException {
        byte[] whole = batch("t/a#0", new byte[100]);
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 10);
        SnapshotBatchReader reader = new SnapshotBatchReader(new ByteArrayInputStream(cut));

        SnapshotBatchReader.Entry entry = reader.next();

        assertThatThrownBy(() -> entry.content().readAllBytes())
                .isInstanceOf(SnapshotBatchFormatException.class)
                .hasMessageContaining("t/a#0").hasMessageContaining("declares 100 bytes")
                .hasMessageContaining("after 90");
        assertThatThrownBy(() -> new SnapshotBatchReader(new ByteArrayInputStream(new byte[] {0, 0})).next())
                .isInstanceOf(SnapshotBatchFormatException.class).hasMessageContaining("entry 0");
    }

    @Test
    void rejectsAnImplausibleTaskIdLength() {
        byte[] body = {0x7f, 0, 0, 0};

        assertThatThrownBy(() -> new SnapshotBatchReader(new ByteArrayInputStream(body)).next())
                .isInstanceOf(SnapshotBatchFormatException.class).hasMessageContaining("1..1024");
    }
}
