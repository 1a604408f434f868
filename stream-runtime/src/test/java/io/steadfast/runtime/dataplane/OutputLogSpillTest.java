package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.TestProducer.sendUpTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** An output log beyond its memory bound spills to disk, and replays from there over real sockets. */
@Timeout(60)
class OutputLogSpillTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("spilled-log"), 1);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults().withResyncInterval(Duration.ofMillis(100));
    private static final int EVENTS_PER_FRAME = 100; // 4,000 payload bytes a frame
    private static final long MEMORY_BOUND = 64 * 1024;

    @TempDir
    Path spillParent;

    private final AutoCloseableList resources = new AutoCloseableList();

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    private DataPlaneConfig spilling() {
        return CONFIG.withOutputLog(new OutputLogConfig(MEMORY_BOUND, spillParent, 32 * 1024));
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.walk(spillParent)) {
            return files.filter(file -> file.toString().endsWith(".spill")).toList();
        }
    }

    /** Opens a channel from {@code sender} to a first receiver and sends events 1..last, all consumed. */
    private OutboundChannel sendConsumed(DataPlane sender, DataPlane receiver, long last) {
        RecordingConsumer original = resources.add(new RecordingConsumer("original"));
        receiver.openInbound(CHANNEL, 0, original);
        OutboundChannel channel = sender.openOutbound(CHANNEL, receiver.endpoint(), 1, Retention.UNTIL_TRUNCATED);
        sendUpTo(channel, last, EVENTS_PER_FRAME);
        await().until(() -> original.lastSeq() == last && channel.acknowledgedSeq() == last);
        receiver.closeInbound(CHANNEL);
        return channel;
    }

    /** The receiving task is restored on {@code plane} after event {@code position}; the sender replays to it. */
    private RecordingConsumer restoreReceiver(OutboundChannel channel, DataPlane plane, long position) {
        RecordingConsumer restored = resources.add(new RecordingConsumer("restored"));
        plane.openInbound(CHANNEL, position, restored);
        channel.redirect(plane.endpoint());
        return restored;
    }

    @Test
    void replaysEveryRecordExactlyOnceFromALogThatWasMostlySpilled() throws IOException {
        DataPlane sender = resources.add(DataPlane.start(spilling()));
        DataPlane first = resources.add(DataPlane.start(CONFIG));
        DataPlane second = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = sendConsumed(sender, first, 20_000);

        assertThat(channel.retainedBytes()).isEqualTo(20_000L * TestProducer.EVENT_BYTES);
        assertThat(channel.spilledBytes()).as("all but the newest frames")
                .isGreaterThanOrEqualTo(channel.retainedBytes() - MEMORY_BOUND);
        assertThat(sender.metrics().spilledBytes()).isEqualTo(channel.spilledBytes());
        assertThat(spillFiles()).hasSizeGreaterThan(10);

        RecordingConsumer restored = restoreReceiver(channel, second, 1_000);
        await().until(() -> restored.lastSeq() == 20_000);
        sendUpTo(channel, 21_000, EVENTS_PER_FRAME);
        await().until(() -> restored.lastSeq() == 21_000);

        assertThat(restored.seqs()).containsExactly(LongStream.rangeClosed(1_001, 21_000).toArray());
        assertThat(restored.errors()).as("payload/seq mismatches").isEmpty();
        assertThat(sender.metrics().spillFailures()).isZero();
        assertThat(sender.metrics().ioLoopErrors()).isZero();
    }

    @Test
    void truncationDeletesSpillFilesAndClosingDeletesTheRest() throws IOException {
        DataPlane sender = DataPlane.start(spilling());
        DataPlane receiver = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = sendConsumed(sender, receiver, 20_000);
        long spilledBefore = channel.spilledBytes();
        int filesBefore = spillFiles().size();

        channel.truncateLog(15_000);
        await().until(() -> channel.retainedFrames() == 50);

        assertThat(channel.spilledBytes()).isLessThan(spilledBefore - 14_000L * TestProducer.EVENT_BYTES);
        assertThat(spillFiles()).hasSizeLessThan(filesBefore / 3);
        sender.close();
        try (Stream<Path> entries = Files.list(spillParent)) {
            assertThat(entries).as("the data plane's spill directory").isEmpty();
        }
    }

    @Test
    void keepsTheLogInMemoryAndReplaysItWhenSpillingFails() throws IOException {
        Path notADirectory = Files.writeString(spillParent.resolve("not-a-directory"), "in the way");
        DataPlane sender = resources.add(DataPlane.start(spilling().withSpillDirectory(notADirectory)));
        DataPlane first = resources.add(DataPlane.start(CONFIG));
        DataPlane second = resources.add(DataPlane.start(CONFIG));
        OutboundChannel channel = sendConsumed(sender, first, 5_000);

        assertThat(sender.metrics().spillFailures()).isPositive();
        assertThat(channel.spilledBytes()).isZero();
        assertThat(channel.retainedBytes()).isEqualTo(5_000L * TestProducer.EVENT_BYTES).isGreaterThan(MEMORY_BOUND);

        RecordingConsumer restored = restoreReceiver(channel, second, 0);
        await().until(() -> restored.lastSeq() == 5_000);
        assertThat(restored.seqs()).containsExactly(LongStream.rangeClosed(1, 5_000).toArray());
        assertThat(sender.metrics().ioLoopErrors()).isZero();
    }
}
