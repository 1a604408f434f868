package io.steadfast.runtime.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.tuple;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.codec.CodecException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordBatchTest {

    private final ValueCodecRegistry codecs = ValueCodecRegistry.of(List.of(Point.CODEC));
    private final RecordBatchWriter writer = new RecordBatchWriter(codecs, 8);
    private final RecordBatchReader reader = new RecordBatchReader(codecs);
    private final Collected collected = new Collected();

    /** What a visitor received: events and watermarks in one list, in order. */
    private static final class Collected implements RecordVisitor {
        final List<Object> records = new ArrayList<>();

        @Override
        public void onEvent(Event<Object> event) {
            records.add(event);
        }

        @Override
        public void onWatermark(long watermark) {
            records.add(watermark);
        }

        @Override
        public void onBarrier(long checkpointId) {
            records.add(new Barrier(checkpointId));
        }
    }

    private static List<Object> sampleRecords() {
        List<Object> records = new ArrayList<>();
        records.add(Event.of("k1", 1L, 100));
        records.add(Event.of("", null, -5));
        records.add(Event.of("k2", Integer.MIN_VALUE, Long.MIN_VALUE));
        records.add(Long.MIN_VALUE); // watermark
        records.add(Event.of("k3", -2.5, Long.MAX_VALUE).withHeader("trace", "abc").withHeader("ü", ""));
        records.add(Event.of("ключ", false, 0));
        records.add(new Event<>("k5", "wörd", 7, Headers.of(Map.of("h", "v"))));
        records.add(Event.of("k6", new byte[] {1, 2, 3}, 8));
        records.add(Event.of("k7", new Point(3, -4), 9));
        records.add(Long.MAX_VALUE);
        records.add(1234L);
        return records;
    }

    private byte[] write(List<Object> records) {
        for (Object record : records) {
            if (record instanceof Event<?> event) {
                writer.addEvent(event);
            } else {
                writer.addWatermark((Long) record);
            }
        }
        assertThat(writer.records()).isEqualTo(records.size());
        assertThat(writer.sequencedRecords()).isEqualTo(sequenced(records));
        return writer.drain();
    }

    /** Events count; watermarks (the longs of a sample) do not take sequence numbers. */
    private static int sequenced(List<Object> records) {
        return (int) records.stream().filter(Event.class::isInstance).count();
    }

    private static void assertSameRecords(List<Object> actual, List<Object> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            Object want = expected.get(i);
            Object got = actual.get(i);
            if (want instanceof Event<?> event && event.value() instanceof byte[] bytes) {
                Event<?> gotEvent = (Event<?>) got;
                assertThat(gotEvent.withValue(null)).isEqualTo(event.withValue(null));
                assertThat((byte[]) gotEvent.value()).containsExactly(bytes);
            } else {
                assertThat(got).as("record %d", i).isEqualTo(want);
            }
        }
    }

    @Test
    void roundTripsEventsOfEveryValueTypeWithAndWithoutHeadersAndWatermarks() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);

        reader.read(payload, sequenced(records), 0, collected);

        assertSameRecords(collected.records, records);
        Event<?> withHeaders = (Event<?>) collected.records.get(4);
        assertThat(withHeaders.headers().asMap()).containsExactly(Map.entry("trace", "abc"), Map.entry("ü", ""));
        assertThat(((Event<?>) collected.records.get(2)).value()).isInstanceOf(Integer.class);
    }

    @Test
    void skipsTheFirstSequencedRecordsButDeliversTheWatermarksAmongThem() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);

        reader.read(payload, sequenced(records), 4, collected);

        List<Object> expected = new ArrayList<>();
        expected.add(Long.MIN_VALUE); // the watermark between the third and the fourth event
        expected.addAll(records.subList(5, records.size()));
        assertSameRecords(collected.records, expected);
    }

    @Test
    void deliversOnlyWatermarksWhenEverySequencedRecordIsSkipped() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);

        reader.read(payload, sequenced(records), sequenced(records), collected);

        assertThat(collected.records).containsExactly(Long.MIN_VALUE, Long.MAX_VALUE, 1234L);
    }

    @Test
    void countsBarriersAsSequencedAndWatermarksNot() {
        writer.addWatermark(3);
        writer.addEvent(Event.of("a", 1L, 4));
        writer.addBarrier(7);
        writer.addWatermark(5);

        assertThat(writer.sequencedRecords()).isEqualTo(2);
        assertThat(writer.records()).isEqualTo(4);
        Object[] decoded = reader.decode(writer.drain(), 2, 0);
        assertThat(decoded).hasSize(4);
        assertThat(decoded[2]).isEqualTo(new Barrier(7));
    }

    @Test
    void resetsTheWriterAfterDrain() {
        write(sampleRecords());

        writer.addWatermark(5);
        byte[] second = writer.drain();

        assertThat(writer.isEmpty()).isTrue();
        reader.read(second, 0, 0, collected);
        assertThat(collected.records).containsExactly(5L);
    }

    @Test
    void keepsTheBatchIntactWhenAnEventCannotBeEncoded() {
        RecordBatchWriter builtInOnly = new RecordBatchWriter(ValueCodecRegistry.builtIn(), 8);
        builtInOnly.addEvent(Event.of("before", 1L, 1));

        assertThatThrownBy(() -> builtInOnly.addEvent(Event.of("bad", new Point(1, 2), 2).withHeader("h", "v")))
                .isInstanceOf(CodecException.class);
        builtInOnly.addEvent(Event.of("after", 3L, 3));
        byte[] payload = builtInOnly.drain();

        new RecordBatchReader(ValueCodecRegistry.builtIn()).read(payload, 2, 0, collected);
        assertThat(collected.records).containsExactly(Event.of("before", 1L, 1), Event.of("after", 3L, 3));
    }

    @Test
    void putsDecisionsFirstWhereverTheyWereAddedAndReadsThemAloneFromTheFront() {
        writer.addEvent(Event.of("k", 1L, 10));
        writer.addDecisions(3, 0, 5, new byte[] {1, 2});
        writer.addWatermark(7);
        writer.addDecisions(4, 2, 9, new byte[] {3});
        assertThat(writer.sizeInBytes()).as("both parts counted").isGreaterThan(10);
        byte[] payload = writer.drain();

        assertThat(RecordBatchReader.leadingDecisions(payload)).extracting(DecisionRecord::origin,
                DecisionRecord::base, DecisionRecord::from).containsExactly(tuple(3, 0L, 5L), tuple(4, 2L, 9L));
        Object[] decoded = reader.decode(payload, 1, 0);
        assertThat(decoded).hasSize(4);
        assertThat(decoded[0]).isInstanceOf(DecisionRecord.class);
        assertThat(decoded[1]).isInstanceOf(DecisionRecord.class);
        assertThat(decoded[2]).isEqualTo(Event.of("k", 1L, 10));
        reader.read(payload, 1, 0, collected);
        assertThat(collected.records).as("visitors see no decisions").containsExactly(Event.of("k", 1L, 10), 7L);

        writer.addEvent(Event.of("k", 2L, 11));
        assertThat(RecordBatchReader.leadingDecisions(writer.drain())).as("none left from the last batch").isEmpty();
        assertThat(RecordBatchReader.leadingDecisions(writer.drain())).as("an empty batch").isEmpty();
    }

    @Test
    void readsBatchesBackToBackAsTheFramesOfABundle() {
        writer.addDecisions(3, 0, 5, new byte[] {1, 2});
        writer.addEvent(Event.of("a", 1L, 1_000_000));
        writer.addWatermark(999_999);
        writer.addEvent(Event.of("b", 2L, 1_000_001));
        byte[] first = writer.drain();
        writer.addEvent(Event.of("c", 3L, 5)); // an event time far below the last batch's: deltas start afresh
        writer.addBarrier(4);
        byte[] second = writer.drain();
        writer.addDecisions(6, 1, 7, new byte[] {9});
        writer.addEvent(Event.of("d", 4L, 2_000_000));
        byte[] third = writer.drain();
        byte[] joined = join(first, second, third);

        reader.read(joined, 5, 0, collected);
        assertThat(collected.records).containsExactly(Event.of("a", 1L, 1_000_000), 999_999L,
                Event.of("b", 2L, 1_000_001), Event.of("c", 3L, 5), new Barrier(4), Event.of("d", 4L, 2_000_000));
        assertThat(reader.decode(joined, 5, 0)).hasSize(8).filteredOn(DecisionRecord.class::isInstance).hasSize(2);

        collected.records.clear();
        reader.read(joined, 5, 3, collected);
        assertThat(collected.records).as("a skip reaching into the second batch")
                .containsExactly(999_999L, new Barrier(4), Event.of("d", 4L, 2_000_000));

        int secondEnds = first.length + second.length;
        assertThat(RecordBatchReader.leadingDecisions(joined, secondEnds, joined.length))
                .extracting(DecisionRecord::origin, DecisionRecord::from).containsExactly(tuple(6, 7L));
        assertThat(RecordBatchReader.leadingDecisions(joined, first.length, secondEnds)).isEmpty();
    }

    @Test
    void rejectsBatchesBackToBackThatHoldAnotherNumberOfSequencedRecords() {
        writer.addEvent(Event.of("a", 1L, 1));
        byte[] first = writer.drain();
        writer.addEvent(Event.of("b", 2L, 2));
        byte[] second = writer.drain();
        byte[] joined = join(first, second);

        assertThatThrownBy(() -> reader.read(joined, 1, 0, collected)).isInstanceOf(CodecException.class)
                .hasMessageContaining("more than the 1");
        assertThatThrownBy(() -> reader.read(joined, 3, 0, collected)).isInstanceOf(CodecException.class)
                .hasMessageContaining("holds 2");
        assertThatThrownBy(() -> reader.read(Arrays.copyOf(joined, joined.length - 1), 2, 0, collected))
                .isInstanceOf(CodecException.class);
        assertThat(collected.records).isEmpty();
    }

    private static byte[] join(byte[]... batches) {
        int length = Arrays.stream(batches).mapToInt(batch -> batch.length).sum();
        byte[] joined = new byte[length];
        int at = 0;
        for (byte[] batch : batches) {
            System.arraycopy(batch, 0, joined, at, batch.length);
            at += batch.length;
        }
        return joined;
    }

    @Test
    void readsAnEmptyBatch() {
        reader.read(writer.drain(), 0, 0, collected);

        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsABatchTruncatedAtEveryBytePositionWithoutDeliveringAnyRecord() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);

        for (int length = 0; length < payload.length; length++) {
            byte[] prefix = Arrays.copyOf(payload, length);
            try {
                reader.read(prefix, sequenced(records), 0, collected);
                fail("a batch truncated to %d of %d bytes was accepted", length, payload.length);
            } catch (CodecException expected) {
                assertThat(collected.records).as("records delivered from %d of %d bytes", length, payload.length)
                        .isEmpty();
            } catch (RuntimeException other) {
                throw new AssertionError("truncated to " + length + " of " + payload.length
                        + " bytes: expected CodecException, got " + other, other);
            }
        }
    }

    @Test
    void rejectsTrailingBytes() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);
        byte[] longer = Arrays.copyOf(payload, payload.length + 1);

        assertThatThrownBy(() -> reader.read(longer, sequenced(records), 0, collected))
                .isInstanceOf(CodecException.class).hasMessageContaining("1 trailing bytes");
        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsAWrongRecordCount() {
        List<Object> records = sampleRecords();
        byte[] payload = write(records);

        assertThatThrownBy(() -> reader.read(payload, sequenced(records) - 1, 0, collected))
                .isInstanceOf(CodecException.class).hasMessageContaining("more than the");
        assertThatThrownBy(() -> reader.read(payload, sequenced(records) + 1, 0, collected))
                .isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> reader.read(payload, -1, 0, collected))
                .isInstanceOf(CodecException.class).hasMessageContaining("negative record count");
        assertThatThrownBy(() -> reader.read(payload, Integer.MAX_VALUE, 0, collected))
                .isInstanceOf(CodecException.class).hasMessageContaining("exceeds the payload");
        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsAnUnknownRecordKindAfterValidRecords() {
        writer.addWatermark(1);
        writer.addEvent(Event.of("a", 1L, 1));
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        byte[] valid = writer.drain();
        out.writeRaw(valid, 0, valid.length);
        out.writeByte(9);
        byte[] corrupt = out.toByteArray();
        corrupt[0] = 3; // the record count, now including the unknown record

        assertThatThrownBy(() -> reader.read(corrupt, 1, 0, collected))
                .isInstanceOf(CodecException.class).hasMessage("unknown record kind 9 in record 2");
        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsAnUnknownValueTag() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeByte(RecordKind.EVENT.code());
        out.writeString("k");
        out.writeVarLong(0);
        out.writeLength(0);
        out.writeByte(42); // value tag

        assertThatThrownBy(() -> reader.read(out.toByteArrayAfterLength(1), 1, 0, collected))
                .isInstanceOf(CodecException.class).hasMessageContaining("unknown value tag 42");
        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsAbsurdLengthPrefixesWithoutReadingOutOfRange() {
        ByteArrayCodecOutput keyTooLong = new ByteArrayCodecOutput(0);
        keyTooLong.writeByte(RecordKind.EVENT.code());
        keyTooLong.writeVarLong(1L << 30); // the unsigned length 2^31 once read as a length
        keyTooLong.writeRaw(new byte[] {'k', 0, 0, 5}, 0, 4);
        ByteArrayCodecOutput headersTooMany = new ByteArrayCodecOutput(0);
        headersTooMany.writeByte(RecordKind.EVENT.code());
        headersTooMany.writeString("k");
        headersTooMany.writeVarLong(0);
        headersTooMany.writeLength(Integer.MAX_VALUE);
        headersTooMany.writeByte(0);
        ByteArrayCodecOutput valueTooLong = new ByteArrayCodecOutput(0);
        valueTooLong.writeByte(RecordKind.EVENT.code());
        valueTooLong.writeString("k");
        valueTooLong.writeVarLong(0);
        valueTooLong.writeLength(0);
        valueTooLong.writeByte(6); // bytes tag
        valueTooLong.writeRaw(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01, 1, 2}, 0, 12); // 2^64 - 1

        for (ByteArrayCodecOutput batch : List.of(keyTooLong, headersTooMany, valueTooLong)) {
            assertThatThrownBy(() -> reader.read(batch.toByteArrayAfterLength(1), 1, 0, collected))
                    .isInstanceOf(CodecException.class).hasMessageContaining("length");
        }
        assertThat(collected.records).isEmpty();
    }

    @Test
    void rejectsASkipOutsideTheBatchWithoutDeliveringAnything() {
        writer.addWatermark(1);
        writer.addWatermark(2);
        byte[] payload = writer.drain();

        assertThatThrownBy(() -> reader.read(payload, 0, -1, collected)).isInstanceOf(CodecException.class);
        assertThatThrownBy(() -> reader.read(payload, 0, 1, collected)).isInstanceOf(CodecException.class);
        assertThat(collected.records).isEmpty();
    }
}
