package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.Event;
import io.steadfast.runtime.codec.Barrier;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.codec.Watermark;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What one output channel sends, and when: sequenced counts and the watermark heartbeat of an idle channel. */
class ChannelWriterTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final TaskSettings SETTINGS = new TaskSettings(16 * 1024, 1000, Duration.ofMillis(5),
            Duration.ofMillis(1), 64, 100, Duration.ofMillis(50));

    private final RecordingSender sender = new RecordingSender();
    private final ChannelWriter writer = new ChannelWriter(sender, ValueCodecRegistry.builtIn(), SETTINGS,
            new TaskMetrics());
    private final RecordBatchReader reader = new RecordBatchReader(ValueCodecRegistry.builtIn());

    @Test
    void countsEventsAndBarriersButNotWatermarksAsSequencedRecords() {
        writer.add(Event.of("a", 1L, 10), 0);
        writer.add(Event.of("b", 2L, 11), 0);
        writer.sendBarrier(3, MS, 10);

        assertThat(sender.frames).hasSize(1);
        Sent frame = sender.frames.get(0);
        assertThat(frame.sequenced).isEqualTo(3);
        Object[] records = reader.decode(frame.payload, frame.sequenced, 0);
        assertThat(records).hasSize(4);
        assertThat(records[2]).isEqualTo(new Watermark(10));
        assertThat(records[3]).isEqualTo(new Barrier(3));
    }

    @Test
    void repeatsTheWatermarkOnAnIdleChannelEveryIntervalAsAFrameOfNoSequencedRecords() {
        writer.flushIfDue(0, 100);
        assertThat(sender.frames).hasSize(1);

        long wait = writer.flushIfDue(10 * MS, 100);
        assertThat(sender.frames).as("not again within the interval").hasSize(1);
        assertThat(wait).isEqualTo(40 * MS);

        writer.flushIfDue(50 * MS, 100);
        writer.flushIfDue(100 * MS, 120);

        assertThat(sender.frames).hasSize(3);
        assertThat(sender.frames).allSatisfy(frame -> assertThat(frame.sequenced).isZero());
        assertThat(sender.frames).extracting(frame -> reader.decode(frame.payload, 0, 0)[0])
                .containsExactly(new Watermark(100), new Watermark(100), new Watermark(120));
    }

    @Test
    void idleChannelsRepeatTheirWatermarksAtTheSameInstants() {
        RecordingSender otherFrames = new RecordingSender();
        ChannelWriter other = new ChannelWriter(otherFrames, ValueCodecRegistry.builtIn(), SETTINGS,
                new TaskMetrics());
        writer.flushIfDue(3 * MS, 100);                      // first watermarks at different times
        other.flushIfDue(31 * MS, 100);

        assertThat(writer.flushIfDue(40 * MS, 100)).as("both wait for the end of the interval, 50 ms")
                .isEqualTo(other.flushIfDue(40 * MS, 100)).isEqualTo(10 * MS);
        writer.flushIfDue(50 * MS, 100);
        other.flushIfDue(50 * MS, 100);
        assertThat(sender.frames).hasSize(2);
        assertThat(otherFrames.frames).hasSize(2);
        assertThat(writer.flushIfDue(60 * MS, 100)).as("then every 50 ms, together")
                .isEqualTo(other.flushIfDue(60 * MS, 100)).isEqualTo(40 * MS);
    }

    @Test
    void aBatchIsSentAtTheEndOfTheAlignedLingerPeriodItStartedIn() {
        ChannelWriter other = new ChannelWriter(new RecordingSender(), ValueCodecRegistry.builtIn(), SETTINGS,
                new TaskMetrics());
        writer.add(Event.of("a", 1L, 10), 11 * MS);         // linger 5 ms: the period 10..15 ms
        other.add(Event.of("b", 2L, 10), 14 * MS);          // another channel, later in the same period

        assertThat(writer.flushIfDue(12 * MS, 10)).as("waits for the end of the period").isEqualTo(3 * MS);
        assertThat(other.flushIfDue(14 * MS, 10)).isEqualTo(MS);
        writer.flushIfDue(14 * MS, 10);
        assertThat(sender.frames).as("not before the period ends").isEmpty();
        writer.flushIfDue(15 * MS, 10);
        assertThat(sender.frames).as("sent when the period ends, 4 ms after its record")
                .filteredOn(frame -> frame.sequenced == 1).hasSize(1);
        assertThat(ChannelWriter.lingerEnds(14 * MS, 5 * MS)).as("both channels at the same instant")
                .isEqualTo(ChannelWriter.lingerEnds(11 * MS, 5 * MS)).isEqualTo(15 * MS);
        assertThat(ChannelWriter.lingerEnds(15 * MS, 5 * MS)).as("a record at a boundary waits a whole period")
                .isEqualTo(20 * MS);
        assertThat(ChannelWriter.lingerEnds(-3 * MS, 5 * MS)).as("the clock may be negative").isEqualTo(0);
    }

    @Test
    void aBatchOfManyRecordsIsSentAShortLingerAfterItsFirstAndAFewRecordsWaitTheWholeLinger() {
        for (int i = 0; i < 63; i++) {
            writer.add(Event.of("k" + i, (long) i, 10), 10 * MS + i);
        }
        assertThat(writer.flushIfDue(10 * MS + 500_000, 10)).as("63 records wait for the 5 ms linger")
                .isEqualTo(4 * MS + 500_000);
        writer.flushIfDue(11 * MS + 100, 10);
        assertThat(sender.frames).isEmpty();

        writer.add(Event.of("k63", 63L, 10), 11 * MS + 200);
        writer.flushIfDue(11 * MS + 300, 10);
        assertThat(sender.frames).as("the 64th record makes the short linger apply: 1 ms after the first, sent")
                .filteredOn(frame -> frame.sequenced == 64).hasSize(1);

        writer.add(Event.of("late", 1L, 10), 12 * MS + 300_000);
        for (int i = 0; i < 63; i++) {
            writer.add(Event.of("m" + i, (long) i, 10), 12 * MS + 400_000);
        }
        assertThat(writer.flushIfDue(12 * MS + 500_000, 10)).as("1 ms after its first record, not at a boundary")
                .isEqualTo(800_000);
    }

    @Test
    void sendsTheFinalWatermarkOfAnIdleChannelAtOnce() {
        writer.flushIfDue(0, 100);
        writer.flushIfDue(MS, Long.MAX_VALUE);

        assertThat(sender.frames).hasSize(2);
        assertThat(reader.decode(sender.frames.get(1).payload, 0, 0)).containsExactly(new Watermark(Long.MAX_VALUE));
    }

    @Test
    void sendsNothingBeforeTheTaskHasAWatermark() {
        writer.flushIfDue(0, Long.MIN_VALUE);
        writer.flushIfDue(1000 * MS, Long.MIN_VALUE);

        assertThat(sender.frames).isEmpty();
    }

    @Test
    void measuresHowLongEachEventWaitedInItsFrameFromItsStampToTheSend() {
        TaskMetrics metrics = new TaskMetrics();
        ChannelWriter timed = new ChannelWriter(new RecordingSender(), null, ValueCodecRegistry.builtIn(), SETTINGS,
                metrics, () -> {
                    throw new AssertionError("a frame sent on linger leaves at the time the task gives");
                });
        timed.add(Event.of("a", 1L, 10), 0);
        timed.add(Event.of("b", 2L, 11), MS);
        timed.add(Event.of("c", 3L, 12), 2 * MS);

        timed.flushIfDue(5 * MS, 10); // the end of the 5 ms linger period the first one fell in

        assertThat(metrics.recordsSent()).isEqualTo(3);
        assertThat(metrics.outputWaitNanos()).as("5 + 4 + 3 ms").isEqualTo(12 * MS);
    }

    @Test
    void aFrameThatFillsUpMidTurnCountsTheTimeItReallyLeftAt() {
        TaskMetrics metrics = new TaskMetrics();
        long[] clock = {0};
        ChannelWriter timed = new ChannelWriter(new RecordingSender(), null, ValueCodecRegistry.builtIn(), SETTINGS,
                metrics, () -> clock[0]);
        for (int i = 0; i < SETTINGS.maxRecordsPerFrame() - 1; i++) {
            timed.add(Event.of("k" + i, 1L, 10), 0);
        }
        clock[0] = 3 * MS; // the turn that began at 0 is 3 ms in when the frame's last event comes
        timed.add(Event.of("last", 1L, 10), 0);

        assertThat(metrics.recordsSent()).isEqualTo(SETTINGS.maxRecordsPerFrame());
        assertThat(metrics.outputWaitNanos()).isEqualTo(SETTINGS.maxRecordsPerFrame() * 3 * MS);
    }

    @Test
    void theTurnsOwnWorkIsTakenOffTheOutputWaitOfWhatItEmitted() {
        TaskMetrics metrics = new TaskMetrics();
        metrics.addFrameOut(10, 50 * MS);

        metrics.addEmittedDuringTurn(10, 4 * MS); // emitted on average 2 ms after the stamp they carry

        assertThat(metrics.outputWaitNanos()).isEqualTo(30 * MS);
    }

    private record Sent(byte[] payload, int sequenced) {
    }

    private static final class RecordingSender implements FrameSender {

        final List<Sent> frames = new ArrayList<>();

        @Override
        public ChannelId channel() {
            return new ChannelId(new TopologyId("writer"), 0);
        }

        @Override
        public void send(byte[] payload, int records) {
            frames.add(new Sent(payload, records));
        }

        @Override
        public boolean hasCredit() {
            return true;
        }

        @Override
        public void onCreditAvailable(Runnable wakeUp) {
        }
    }
}
