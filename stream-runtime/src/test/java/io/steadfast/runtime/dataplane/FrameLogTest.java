package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.dataplane.TestFrames.Content;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The output log's two tiers: the newest frames in memory up to a bound, the oldest in spill files. */
@Timeout(30)
class FrameLogTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("spill"), 4);
    private static final long MEMORY_BOUND = 4096;
    private static final long FILE_BYTES = 16 * 1024;

    @TempDir
    Path parent;

    private SpillDirectory directory;
    private final List<RetainedFrame> frames = TestFrames.randomFrames(CHANNEL, 1, 5_000, 20, 512, new Random(11));

    @AfterEach
    void deleteSpillDirectory() {
        if (directory != null) {
            directory.delete();
        }
    }

    private FrameLog newLog(long memoryBound, Path spillParent) {
        directory = new SpillDirectory(spillParent);
        return new FrameLog(memoryBound, new SpilledFrames(CHANNEL, 0, directory, FILE_BYTES,
                new LogSegmentCodec(TestFrames.CODEC)));
    }

    /** Appends every test frame, spilling after each as the channel does, and checks the bound each time. */
    private FrameLog filledLog() throws IOException {
        FrameLog log = newLog(MEMORY_BOUND, parent);
        for (RetainedFrame frame : frames) {
            log.append(frame);
            log.spillOverBound();
            assertThat(log.memoryBytes()).as("bytes in memory after frame %d", frame.firstSeq)
                    .isLessThanOrEqualTo(MEMORY_BOUND);
        }
        return log;
    }

    private static long payloadBytes(List<RetainedFrame> frames) {
        return frames.stream().mapToLong(frame -> frame.payload.length).sum();
    }

    private List<Content> readAll(FrameLog log) throws IOException {
        List<Content> read = new ArrayList<>();
        for (long number = log.first(); number < log.end(); number++) {
            read.add(Content.of(log.get(number)));
        }
        return read;
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.walk(parent)) {
            return files.filter(file -> file.toString().endsWith(".spill")).sorted().toList();
        }
    }

    @Test
    void keepsMemoryUnderTheBoundAndReadsEveryFrameBackByteIdenticalInOrder() throws IOException {
        FrameLog log = filledLog();

        assertThat(log.size()).isEqualTo(5_000);
        assertThat(log.bytes()).isEqualTo(payloadBytes(frames));
        assertThat(log.spilledBytes()).as("all but the last few KiB").isGreaterThan(log.bytes() - MEMORY_BOUND);
        assertThat(spillFiles()).as("rotated at %d bytes", FILE_BYTES).hasSizeGreaterThan(50);
        assertThat(readAll(log)).isEqualTo(Content.of(frames));
    }

    @Test
    void readsSeqsOfSpilledFramesWithoutTheDiskAndFindsFramesBySeq() throws IOException {
        FrameLog log = filledLog();
        for (Path file : spillFiles()) {
            Files.delete(file); // the index alone must answer
        }

        for (int i = 0; i < frames.size(); i++) {
            RetainedFrame frame = frames.get(i);
            assertThat(log.firstSeq(i)).isEqualTo(frame.firstSeq);
            assertThat(log.lastSeq(i)).isEqualTo(frame.lastSeq());
            assertThat(log.firstAfter(frame.firstSeq - 1)).as("frame holding seq %d", frame.firstSeq).isEqualTo(i);
            assertThat(log.firstAfter(frame.lastSeq())).isEqualTo(i + 1);
        }
    }

    @Test
    void deletesEachSpillFileOnceTruncationDroppedAllItsFrames() throws IOException {
        FrameLog log = filledLog();
        int filesBefore = spillFiles().size();

        for (int i = 0; i < 2_500; i++) {
            log.removeFirst();
        }

        assertThat(spillFiles().size()).isBetween(filesBefore / 2 - 2, filesBefore / 2 + 2);
        assertThat(log.bytes()).isEqualTo(payloadBytes(frames.subList(2_500, 5_000)));
        assertThat(readAll(log)).isEqualTo(Content.of(frames.subList(2_500, 5_000)));

        while (!log.isEmpty()) {
            log.removeFirst();
        }
        assertThat(spillFiles()).isEmpty();
        assertThat(log.spilledBytes()).isZero();
        assertThat(log.first()).isEqualTo(5_000);
    }

    @Test
    void spillsAgainAfterEveryFileWasDeleted() throws IOException {
        FrameLog log = filledLog();
        while (!log.isEmpty()) {
            log.removeFirst();
        }
        List<RetainedFrame> more = TestFrames.randomFrames(CHANNEL, frames.get(4_999).lastSeq() + 1, 100, 5, 512,
                new Random(12));

        for (RetainedFrame frame : more) {
            log.append(frame);
            log.spillOverBound();
        }

        assertThat(log.spilledBytes()).isPositive();
        assertThat(readAll(log)).isEqualTo(Content.of(more));
    }

    @Test
    void clearDeletesEverySpillFile() throws IOException {
        FrameLog log = filledLog();

        log.clear();

        assertThat(spillFiles()).isEmpty();
        assertThat(log.isEmpty()).isTrue();
        assertThat(log.bytes()).isZero();
    }

    @Test
    void createsNoSpillDirectoryUntilTheBoundIsExceeded() throws IOException {
        FrameLog log = newLog(payloadBytes(frames), parent);
        for (RetainedFrame frame : frames) {
            log.append(frame);
            log.spillOverBound();
        }

        assertThat(log.spilledBytes()).isZero();
        try (Stream<Path> entries = Files.list(parent)) {
            assertThat(entries).isEmpty();
        }
    }

    @Test
    void keepsFramesInMemoryWhenTheSpillDirectoryCannotBeCreated() throws IOException {
        Path notADirectory = Files.writeString(parent.resolve("a-file"), "in the way");
        FrameLog log = newLog(MEMORY_BOUND, notADirectory);

        int appended = 0;
        while (log.memoryBytes() <= MEMORY_BOUND) {
            log.append(frames.get(appended++));
        }
        for (int i = 0; i < 100; i++) {
            assertThatThrownBy(log::spillOverBound).as("spilling after %d frames", appended)
                    .isInstanceOf(IOException.class);
            log.append(frames.get(appended++));
        }

        assertThat(log.spilledBytes()).isZero();
        assertThat(log.memoryBytes()).isEqualTo(log.bytes()).isGreaterThan(MEMORY_BOUND);
        assertThat(readAll(log)).isEqualTo(Content.of(frames.subList(0, log.size())));
    }

    @Test
    void reportsASpillFileThatVanishedWhenItsFrameIsReadBack() throws IOException {
        FrameLog log = filledLog();
        for (Path file : spillFiles()) {
            Files.delete(file);
        }

        assertThatThrownBy(() -> log.get(0)).isInstanceOf(IOException.class).hasMessageContaining(".spill");
        assertThat(Content.of(log.get(log.end() - 1))).as("frames in memory still read")
                .isEqualTo(Content.of(frames.get(4_999)));
    }

    @Test
    void reportsACorruptSpillFileNamingItAndTheSeqsExpected() throws IOException {
        FrameLog log = filledLog();
        try (FileChannel file = FileChannel.open(spillFiles().get(0), StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.allocate(8).putLong(0, 777), 0); // firstSeq of the first record
        }

        assertThatThrownBy(() -> log.get(0)).isInstanceOf(IOException.class)
                .hasMessageContaining(spillFiles().get(0).toString())
                .hasMessageContaining("holds seqs 777..").hasMessageContaining("expected 1..");
    }

    @Test
    void neverSpillsALogWithoutABound() throws IOException {
        FrameLog log = newLog(Long.MAX_VALUE, parent);
        for (RetainedFrame frame : frames) {
            log.append(frame);
            log.spillOverBound();
        }

        assertThat(log.memoryBytes()).isEqualTo(payloadBytes(frames));
        assertThat(spillFiles()).isEmpty();
    }

    @Test
    void deletingTheSpillDirectoryRemovesTheFilesStillInIt() throws IOException {
        filledLog();
        assertThat(spillFiles()).isNotEmpty();

        directory.delete();

        try (Stream<Path> entries = Files.list(parent)) {
            assertThat(entries).isEmpty();
        }
    }
}
