package io.steadfast.runtime.codec;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.codec.CodecException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a payload written by {@link RecordBatchWriter}, or several such batches back to back (frames a sender sent
 * together, each batch starting with its record count). Validates the whole payload before it hands any record
 * to the visitor, so that a malformed batch is rejected as a unit ({@link CodecException}) and never half
 * processed. Thread-safe (stateless apart from the registry).
 */
public final class RecordBatchReader {

    private final ValueCodecRegistry values;

    public RecordBatchReader(ValueCodecRegistry values) {
        this.values = values;
    }

    /**
     * Decodes a batch of {@code expectedSequenced} sequenced records (events and barriers) and any number of
     * watermarks, and delivers all but the first {@code skip} sequenced records to the visitor. Watermarks
     * among the skipped records are delivered: they are monotonic, so one that arrives again changes nothing.
     *
     * @throws CodecException if the payload is truncated, has an unknown record kind, or a different number of
     *         sequenced records
     */
    public void read(byte[] payload, int expectedSequenced, int skip, RecordVisitor visitor) {
        Object[] decoded = decode(payload, expectedSequenced, skip);
        int toSkip = skip;
        for (Object record : decoded) {
            if (record instanceof Watermark watermark) {
                visitor.onWatermark(watermark.timestamp());
            } else if (record instanceof DecisionRecord) {
                continue; // for the runtime's replay, not for visitors
            } else if (toSkip > 0) {
                toSkip--;
            } else if (record instanceof Barrier barrier) {
                visitor.onBarrier(barrier.checkpointId());
            } else {
                @SuppressWarnings("unchecked")
                Event<Object> event = (Event<Object>) record;
                visitor.onEvent(event);
            }
        }
    }

    /**
     * The decision records a payload starts with ({@link RecordBatchWriter} puts every one there), read without
     * decoding the records after them: what a receiving host stores as a frame arrives. Empty if the payload starts
     * with another record or holds none.
     *
     * @throws CodecException if the payload ends or is malformed within those records
     */
    public static List<DecisionRecord> leadingDecisions(byte[] payload) {
        return leadingDecisions(payload, 0, payload.length);
    }

    /**
     * As {@link #leadingDecisions(byte[])}, of the batch in {@code payload[from..to)}: one frame of several sent
     * together, whose payloads lie back to back.
     */
    public static List<DecisionRecord> leadingDecisions(byte[] payload, int from, int to) {
        ByteArrayCodecInput in = new ByteArrayCodecInput(payload, from, to - from);
        int total = in.readCount("record count");
        List<DecisionRecord> leading = List.of();
        for (int i = 0; i < total && in.readByte() == RecordKind.DECISIONS.code(); i++) {
            long origin = in.readVarLong();
            if (origin < 0 || origin > Integer.MAX_VALUE) {
                throw new CodecException("decisions of record " + i + " name task index " + origin);
            }
            if (leading.isEmpty()) {
                leading = new ArrayList<>();
            }
            leading.add(new DecisionRecord((int) origin, in.readVarLong(), in.readVarLong(), in.readBytes()));
        }
        return leading;
    }

    /**
     * Decodes and validates a whole batch into its records: {@link Event}s, {@link Watermark}s and
     * {@link Barrier}s, for callers that may stop part-way (at a barrier) and resume later.
     *
     * @param skip sequenced records the caller will skip; checked to lie within the batch
     * @throws CodecException as {@link #read}
     */
    public Object[] decode(byte[] payload, int expectedSequenced, int skip) {
        if (skip < 0 || expectedSequenced >= 0 && skip > expectedSequenced) {
            throw new CodecException("cannot skip " + skip + " of " + expectedSequenced + " sequenced records");
        }
        return decode(payload, expectedSequenced);
    }

    private Object[] decode(byte[] payload, int expectedSequenced) {
        if (expectedSequenced < 0) {
            throw new CodecException("negative record count " + expectedSequenced);
        }
        ByteArrayCodecInput in = new ByteArrayCodecInput(payload);
        if (expectedSequenced > in.remaining()) {
            throw new CodecException("record count " + expectedSequenced + " exceeds the payload of "
                    + in.remaining() + " bytes");
        }
        Object[] records = null;
        int count = 0;
        int sequenced = 0;
        do {
            int remainingBefore = in.remaining();
            int total = in.readCount("record count");
            if (total == 0 && records != null) {
                throw new CodecException(remainingBefore + " trailing bytes after " + count + " records");
            }
            if (total > in.remaining()) {
                throw new CodecException("a batch of " + total + " records in the " + in.remaining()
                        + " bytes left of the payload");
            }
            if (records == null) {
                records = new Object[total];
            } else if (count + total > records.length) {
                records = Arrays.copyOf(records, Math.max(count + total, 2 * records.length));
            }
            sequenced = decodeBatch(in, records, count, count + total, sequenced, expectedSequenced);
            count += total;
        } while (in.remaining() > 0);
        if (sequenced != expectedSequenced) {
            throw new CodecException("the header announced " + expectedSequenced + " sequenced records, the payload "
                    + "holds " + sequenced);
        }
        return count == records.length ? records : Arrays.copyOf(records, count);
    }

    /**
     * Decodes the records of one batch (its count read) into {@code records[from..to)}.
     *
     * @return the sequenced records decoded so far: {@code sequencedBefore} and this batch's
     */
    private int decodeBatch(ByteArrayCodecInput in, Object[] records, int from, int to, int sequencedBefore,
                            int expectedSequenced) {
        int sequenced = sequencedBefore;
        long previousEventTime = 0;
        for (int i = from; i < to; i++) {
            int kind = in.readByte();
            if (kind == RecordKind.EVENT.code()) {
                Event<Object> event = readEvent(in, previousEventTime);
                previousEventTime = event.eventTime();
                records[i] = event;
                sequenced++;
            } else if (kind == RecordKind.WATERMARK.code()) {
                records[i] = new Watermark(in.readVarLong());
            } else if (kind == RecordKind.DECISIONS.code()) {
                long origin = in.readVarLong();
                if (origin < 0 || origin > Integer.MAX_VALUE) {
                    throw new CodecException("decisions of record " + i + " name task index " + origin);
                }
                records[i] = new DecisionRecord((int) origin, in.readVarLong(), in.readVarLong(), in.readBytes());
            } else if (kind == RecordKind.BARRIER.code()) {
                long checkpointId = in.readVarLong();
                if (checkpointId < 1) {
                    throw new CodecException("barrier of record " + i + " names checkpoint " + checkpointId
                            + "; checkpoint ids start at 1");
                }
                records[i] = new Barrier(checkpointId);
                sequenced++;
            } else {
                throw new CodecException("unknown record kind " + kind + " in record " + i);
            }
            if (sequenced > expectedSequenced) {
                throw new CodecException("more than the " + expectedSequenced + " sequenced records the header "
                        + "announced, at record " + i);
            }
        }
        return sequenced;
    }

    private Event<Object> readEvent(ByteArrayCodecInput in, long previousEventTime) {
        String key = in.readString();
        long eventTime = previousEventTime + in.readVarLong();
        int headerCount = in.readCount("headers");
        Headers headers = Headers.empty();
        if (headerCount > 0) {
            Map<String, String> entries = new LinkedHashMap<>();
            for (int h = 0; h < headerCount; h++) {
                entries.put(in.readString(), in.readString());
            }
            headers = Headers.of(entries);
        }
        Object value = values.read(in);
        return new Event<>(key, value, eventTime, headers);
    }
}
