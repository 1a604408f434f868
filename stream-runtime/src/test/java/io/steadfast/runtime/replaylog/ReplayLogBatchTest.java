package io.steadfast.runtime.replaylog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayLogBatchTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("word-count"), 3, 2);

    private static ReplayLogSegment segment(long first, long last, long checkpoint, int size) {
        return segment(0, first, last, checkpoint, size);
    }

    private static ReplayLogSegment segment(int incarnation, long first, long last, long checkpoint, int size) {
        byte[] frames = new byte[size];
        Arrays.fill(frames, (byte) first);
        return new ReplayLogSegment(new LogSegment(CHANNEL, incarnation, first, last, frames), checkpoint);
    }

    private static List<ReplayLogSegment> readAll(byte[] batch, int maxFrameBytes) throws IOException {
        return ReplayLogBatchReader.readAll(new ByteArrayInputStream(batch), maxFrameBytes);
    }

    /** A batch header and one entry written field by field, to break one field at a time. */
    private static byte[] entry(String channel, long first, long last, long checkpoint, int length, int written)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(ReplayLogBatchWriter.MAGIC);
        byte[] id = channel.getBytes(StandardCharsets.UTF_8);
        out.writeShort(id.length);
        out.write(id);
        out.writeInt(0);
        out.writeLong(first);
        out.writeLong(last);
        out.writeLong(checkpoint);
        out.writeInt(length);
        out.write(new byte[written]);
        return bytes.toByteArray();
    }

    @Test
    void readsBackWhatWasWrittenWithItsExactSize() throws IOException {
        List<ReplayLogSegment> segments = List.of(segment(1, 10, ReplayLogSegment.NO_CHECKPOINT, 100),
                segment(3, 11, 11, 4, 0), segment(12, 400, 5, 70_000));

        byte[] batch = ReplayLogBatchWriter.encode(segments);
        List<ReplayLogSegment> read = readAll(batch, 70_000);

        assertThat(batch).hasSize((int) (ReplayLogBatchWriter.HEADER_BYTES
                + segments.stream().mapToLong(ReplayLogBatchWriter::encodedSize).sum()));
        assertThat(read).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(read.get(i).channel()).isEqualTo(CHANNEL);
            assertThat(read.get(i).incarnation()).isEqualTo(segments.get(i).incarnation());
            assertThat(read.get(i).firstSeq()).isEqualTo(segments.get(i).firstSeq());
            assertThat(read.get(i).lastSeq()).isEqualTo(segments.get(i).lastSeq());
            assertThat(read.get(i).checkpoint()).isEqualTo(segments.get(i).checkpoint());
            assertThat(read.get(i).segment().frames()).isEqualTo(segments.get(i).segment().frames());
        }
    }

    @Test
    void readsABatchOfFormatOneWhoseEntriesCarryNoIncarnationAsLoggedByIncarnationZero() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(ReplayLogBatchWriter.MAGIC_WITHOUT_INCARNATION);
        byte[] id = CHANNEL.toString().getBytes(StandardCharsets.UTF_8);
        out.writeShort(id.length);
        out.write(id);
        out.writeLong(1);
        out.writeLong(5);
        out.writeLong(ReplayLogSegment.NO_CHECKPOINT);
        out.writeInt(2);
        out.write(new byte[] {7, 8});

        assertThat(readAll(bytes.toByteArray(), 10)).singleElement().satisfies(segment -> {
            assertThat(segment.incarnation()).isZero();
            assertThat(segment.lastSeq()).isEqualTo(5);
            assertThat(segment.segment().frames()).containsExactly(7, 8);
        });
    }

    @Test
    void anEmptyBatchIsTheHeaderOnlyAndAnEmptyBodyIsNotABatch() throws IOException {
        assertThat(readAll(ReplayLogBatchWriter.encode(List.of()), 10)).isEmpty();

        assertThatThrownBy(() -> readAll(new byte[0], 10)).isInstanceOf(ReplayLogFormatException.class)
                .hasMessageContaining("header 0x53464C32");
        assertThatThrownBy(() -> readAll("{\"segments\": []}".getBytes(StandardCharsets.UTF_8), 10))
                .isInstanceOf(ReplayLogFormatException.class).hasMessageContaining("instead of the header");
    }

    @Test
    void namesTheEntryAndFieldThatIsWrong() throws IOException {
        byte[] good = ReplayLogBatchWriter.encode(List.of(segment(1, 5, 0, 3)));
        byte[] second = entry("word-count~3@2", 6, 5, 0, 0, 0);
        byte[] batch = Arrays.copyOf(good, good.length + second.length - 4);
        System.arraycopy(second, 4, batch, good.length, second.length - 4);

        assertThatThrownBy(() -> readAll(batch, 10)).isInstanceOfSatisfying(ReplayLogFormatException.class, e -> {
            assertThat(e.entry()).isEqualTo(1);
            assertThat(e.field()).isEqualTo("entries[1].lastSeq");
            assertThat(e.getMessage()).contains("lastSeq 5 below its firstSeq 6");
        });
        assertThatThrownBy(() -> readAll(entry("word-count~3", 0, 5, 0, 0, 0), 10))
                .isInstanceOfSatisfying(ReplayLogFormatException.class,
                        e -> assertThat(e.field()).isEqualTo("entries[0].firstSeq"));
        assertThatThrownBy(() -> readAll(entry("word-count~3", 1, 5, -2, 0, 0), 10))
                .isInstanceOfSatisfying(ReplayLogFormatException.class,
                        e -> assertThat(e.field()).isEqualTo("entries[0].checkpoint"));
        assertThatThrownBy(() -> readAll(entry("no-index", 1, 5, 0, 0, 0), 10))
                .isInstanceOfSatisfying(ReplayLogFormatException.class, e -> {
                    assertThat(e.field()).isEqualTo("entries[0].channel");
                    assertThat(e.getMessage()).contains("no-index", "topology~index@epoch");
                });
    }

    @Test
    void refusesAnEntryLargerThanAcceptedBeforeReadingItsBytes() throws IOException {
        byte[] batch = entry("word-count~3", 1, 5, 0, Integer.MAX_VALUE, 0);

        assertThatThrownBy(() -> readAll(batch, 1024)).isInstanceOfSatisfying(ReplayLogEntryTooLargeException.class,
                e -> {
                    assertThat(e.field()).isEqualTo("entries[0].length");
                    assertThat(e.getMessage()).contains(Integer.toString(Integer.MAX_VALUE), "1024");
                });
    }

    @Test
    void aBatchThatEndsInsideAnEntryIsRefused() throws IOException {
        byte[] batch = entry("word-count~3", 1, 5, 0, 100, 40);

        assertThatThrownBy(() -> readAll(batch, 1024)).isInstanceOfSatisfying(ReplayLogFormatException.class, e -> {
            assertThat(e.field()).isEqualTo("entries[0].frames");
            assertThat(e.getMessage()).contains("ended inside entry 0");
        });
    }
}
