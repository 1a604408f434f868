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
            byte[] id = ((String) taskAndContent[i]).getBytes(StandardCharsets.UTF_8);
            byte[] content = (byte[]) taskAndContent[i + 1];
            out.writeInt(id.length);
            out.write(id);
            out.writeLong(content.length);
            out.write(content);
        }
        return bytes.toByteArray();
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
