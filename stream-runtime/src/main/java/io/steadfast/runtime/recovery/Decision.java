package io.steadfast.runtime.recovery;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.util.ArrayList;
import java.util.List;

/**
 * One nondeterministic decision of a task, logged so that a recovered task can make it again: which input it
 * took records from, a watermark it applied, where a source put a barrier, the processing time it read. Everything else a task does follows
 * from its input and these. Encoded as a tag byte and varints.
 */
sealed interface Decision {

    int RUN = 1;
    int WATERMARK = 2;
    int SOURCE_BARRIER = 3;
    int PROCESSING_TIME = 4;

    /**
     * The task took {@code records} sequenced records (events, barriers) from its input {@code input}; for a
     * source, it emitted {@code records} events (input 0).
     */
    record Run(int input, int records) implements Decision {
        @Override
        public int tag() {
            return RUN;
        }

        @Override
        public long[] fields() {
            return new long[] {input, records};
        }
    }

    /** The task applied watermark {@code value} that arrived on its input {@code input}. */
    record AppliedWatermark(int input, long value) implements Decision {
        @Override
        public int tag() {
            return WATERMARK;
        }

        @Override
        public long[] fields() {
            return new long[] {input, value};
        }
    }

    /** The source sent the barrier of checkpoint {@code checkpointId} when at {@code position}. */
    record SourceBarrier(long checkpointId, long position) implements Decision {
        @Override
        public int tag() {
            return SOURCE_BARRIER;
        }

        @Override
        public long[] fields() {
            return new long[] {checkpointId, position};
        }
    }

    /**
     * The task's processing-time clock read {@code millis} (epoch milliseconds) here, and the processing-time timers
     * due by then fired; a replay applies the same reading at the same place instead of the clock.
     */
    record ProcessingTime(long millis) implements Decision {
        @Override
        public int tag() {
            return PROCESSING_TIME;
        }

        @Override
        public long[] fields() {
            return new long[] {millis};
        }
    }

    static void write(Decision decision, ByteArrayCodecOutput out) {
        out.writeByte(decision.tag());
        for (long field : decision.fields()) {
            out.writeVarLong(field);
        }
    }

    /** The encoding's tag byte. */
    int tag();

    /** The fields in the order they are encoded. */
    long[] fields();

    /** Decisions parsed from bytes, each with the offset (relative to the bytes) where it ends. */
    record Parsed(List<Decision> decisions, List<Integer> ends) {
    }

    /** Parses a run of encoded decisions. */
    static Parsed parse(byte[] bytes) {
        ByteArrayCodecInput in = new ByteArrayCodecInput(bytes);
        List<Decision> parsed = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        while (in.remaining() > 0) {
            int tag = in.readByte();
            switch (tag) {
                case RUN -> parsed.add(new Run(index(in), (int) within(in.readVarLong(), Integer.MAX_VALUE, "run")));
                case WATERMARK -> parsed.add(new AppliedWatermark(index(in), in.readVarLong()));
                case SOURCE_BARRIER -> parsed.add(new SourceBarrier(within(in.readVarLong(), Long.MAX_VALUE,
                        "checkpoint id"), in.readVarLong()));
                case PROCESSING_TIME -> parsed.add(new ProcessingTime(in.readVarLong()));
                default -> throw new CodecException("unknown decision tag " + tag + " at decision "
                        + parsed.size());
            }
            ends.add(bytes.length - in.remaining());
        }
        return new Parsed(parsed, ends);
    }

    private static int index(ByteArrayCodecInput in) {
        long index = in.readVarLong();
        if (index < 0 || index > Integer.MAX_VALUE) {
            throw new CodecException("input index " + index + " out of range");
        }
        return (int) index;
    }

    private static long within(long value, long max, String what) {
        if (value < 1 || value > max) {
            throw new CodecException(what + " " + value + " out of range 1.." + max);
        }
        return value;
    }
}
