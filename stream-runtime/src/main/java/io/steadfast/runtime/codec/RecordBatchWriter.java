package io.steadfast.runtime.codec;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import java.util.Map;

/**
 * Builds the payload of one frame: a run of records (events, barriers and watermarks). Not thread-safe; one per output
 * channel, owned by the producing task's thread. The payload starts with the number of records (unsigned
 * varint), so that a reader can tell a whole batch from a truncated one. Format per record: kind byte; for an event, key, event time
 * as a zig-zag varlong delta from the previous event of the batch (the first from 0; event times of a batch are
 * usually close, so this takes a byte or two), header count and pairs, tagged value; for a watermark, its
 * timestamp; for a barrier, its checkpoint id.
 *
 * <p>Events and barriers are <em>sequenced</em>: each takes a sequence number of its channel, so a channel's
 * sequenced records are the same whenever a deterministic producer regenerates them (local recovery replays
 * and deduplicates by them). Watermarks are not: where they land depends on when a batch is flushed, and being
 * monotonic they are idempotent anyway. {@link #sequencedRecords()} is the count a frame header carries.
 *
 * <p>Decision records come first in the payload, whenever they were added: a receiving host stores them as the
 * frame arrives ({@link RecordBatchReader#leadingDecisions}), before its task takes in any record of the frame —
 * even if that task is held up (no credit downstream) when the sender dies.
 */
public final class RecordBatchWriter {

    private final ValueCodecRegistry values;
    private final ByteArrayCodecOutput out;
    /** The decision records of the batch, which go before the others. */
    private final ByteArrayCodecOutput decisions = new ByteArrayCodecOutput(64);
    private int sequenced;
    private int records;
    private long previousEventTime;

    public RecordBatchWriter(ValueCodecRegistry values, int initialCapacity) {
        this.values = values;
        this.out = new ByteArrayCodecOutput(initialCapacity);
    }

    /**
     * Appends an event. If its value cannot be encoded (a {@link io.steadfast.api.codec.CodecException} for a
     * type without a codec), nothing of it stays in the batch, so the records added before remain intact.
     */
    public void addEvent(Event<?> event) {
        int start = out.size();
        try {
            out.writeByte(RecordKind.EVENT.code());
            out.writeString(event.key());
            out.writeVarLong(event.eventTime() - previousEventTime);
            Headers headers = event.headers();
            out.writeLength(headers.size());
            if (!headers.isEmpty()) {
                for (Map.Entry<String, String> header : headers.asMap().entrySet()) {
                    out.writeString(header.getKey());
                    out.writeString(header.getValue());
                }
            }
            values.write(event.value(), out);
            previousEventTime = event.eventTime();
        } catch (RuntimeException e) {
            out.truncate(start);
            throw e;
        }
        sequenced++;
        records++;
    }

    public void addWatermark(long watermark) {
        out.writeByte(RecordKind.WATERMARK.code());
        out.writeVarLong(watermark);
        records++;
    }

    public void addBarrier(long checkpointId) {
        out.writeByte(RecordKind.BARRIER.code());
        out.writeVarLong(checkpointId);
        sequenced++;
        records++;
    }

    /**
     * Adds decisions of task {@code origin} (unsequenced; see {@link DecisionRecord}), ahead of every record
     * that is not a decision record.
     */
    public void addDecisions(int origin, long base, long from, byte[] bytes) {
        decisions.writeByte(RecordKind.DECISIONS.code());
        decisions.writeVarLong(origin);
        decisions.writeVarLong(base);
        decisions.writeVarLong(from);
        decisions.writeBytes(bytes);
        records++;
    }

    /** Events and barriers in the batch: the records that take sequence numbers. */
    public int sequencedRecords() {
        return sequenced;
    }

    /** Every record in the batch, watermarks included. */
    public int records() {
        return records;
    }

    public int sizeInBytes() {
        return out.size() + decisions.size();
    }

    public boolean isEmpty() {
        return records == 0;
    }

    /** Returns the encoded batch (a fresh array the caller owns) and resets the writer for the next batch. */
    public byte[] drain() {
        byte[] payload = out.toByteArrayAfterLength(records, decisions);
        out.reset();
        decisions.reset();
        records = 0;
        sequenced = 0;
        previousEventTime = 0;
        return payload;
    }
}
