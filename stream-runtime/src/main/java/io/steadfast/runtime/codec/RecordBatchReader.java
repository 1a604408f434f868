package io.steadfast.runtime.codec;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.codec.CodecException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decodes a payload written by {@link RecordBatchWriter}. Validates the whole batch before it hands any record
 * to the visitor, so that a malformed batch is rejected as a unit ({@link CodecException}) and never half
 * processed. Thread-safe (stateless apart from the registry).
 */
public final class RecordBatchReader {

    private final ValueCodecRegistry values;

    public RecordBatchReader(ValueCodecRegistry values) {
        this.values = values;
    }

    /**
     * Decodes {@code expectedRecords} records and delivers all but the first {@code skip} to the visitor.
     *
     * @throws CodecException if the payload is truncated, has trailing bytes, an unknown record kind, or a
     *         different number of records
     */
    public void read(byte[] payload, int expectedRecords, int skip, RecordVisitor visitor) {
        Object[] decoded = decode(payload, expectedRecords, skip);
        for (int i = skip; i < decoded.length; i++) {
            Object record = decoded[i];
            if (record instanceof Watermark watermark) {
                visitor.onWatermark(watermark.timestamp());
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
     * Decodes and validates a whole batch into its records: {@link Event}s, {@link Watermark}s and
     * {@link Barrier}s, for callers that may stop part-way (at a barrier) and resume later.
     *
     * @param skip checked to lie within the batch; the records it skips are decoded too
     * @throws CodecException as {@link #read}
     */
    public Object[] decode(byte[] payload, int expectedRecords, int skip) {
        if (skip < 0 || expectedRecords >= 0 && skip > expectedRecords) {
            throw new CodecException("cannot skip " + skip + " of " + expectedRecords + " records");
        }
        return decode(payload, expectedRecords);
    }

    private Object[] decode(byte[] payload, int expectedRecords) {
        if (expectedRecords < 0) {
            throw new CodecException("negative record count " + expectedRecords);
        }
        ByteArrayCodecInput in = new ByteArrayCodecInput(payload);
        if (expectedRecords > in.remaining()) {
            throw new CodecException("record count " + expectedRecords + " exceeds the payload of " + in.remaining() + " bytes");
        }
        Object[] records = new Object[expectedRecords];
        long previousEventTime = 0;
        for (int i = 0; i < expectedRecords; i++) {
            int kind = in.readByte();
            if (kind == RecordKind.EVENT.code()) {
                Event<Object> event = readEvent(in, previousEventTime);
                previousEventTime = event.eventTime();
                records[i] = event;
            } else if (kind == RecordKind.WATERMARK.code()) {
                records[i] = new Watermark(in.readVarLong());
            } else if (kind == RecordKind.BARRIER.code()) {
                long checkpointId = in.readVarLong();
                if (checkpointId < 1) {
                    throw new CodecException("barrier of record " + i + " names checkpoint " + checkpointId
                            + "; checkpoint ids start at 1");
                }
                records[i] = new Barrier(checkpointId);
            } else {
                throw new CodecException("unknown record kind " + kind + " in record " + i);
            }
        }
        if (in.remaining() != 0) {
            throw new CodecException(in.remaining() + " trailing bytes after " + expectedRecords + " records");
        }
        return records;
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
