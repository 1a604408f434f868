package io.steadfast.runtime.task;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a task's channels stood when it took a snapshot at a checkpoint barrier, by channel index: for each
 * input channel the sequence number of the last record it took (the barrier), for each output channel the
 * sequence number of the barrier it sent. A task restored in place of a lost one resumes its channels there:
 * its inputs are replayed from the record after, and its regenerated output is numbered from the barrier on,
 * so receivers drop what they already have. {@code decisionOffset} is where the task's
 * {@link io.steadfast.runtime.recovery.DecisionLog} stood: a recovered task replays the decisions logged from there. Immutable.
 */
public record ChannelPositions(Map<Integer, Long> inputs, Map<Integer, Long> outputs, long decisionOffset) {

    /** No positions: a snapshot taken outside a checkpoint, or stored before positions were kept. */
    public static final ChannelPositions NONE = new ChannelPositions(Map.of(), Map.of(), 0);

    public ChannelPositions {
        inputs = Map.copyOf(inputs);
        outputs = Map.copyOf(outputs);
    }

    void writeTo(ByteArrayCodecOutput out) {
        write(inputs, out);
        write(outputs, out);
        out.writeVarLong(decisionOffset);
    }

    static ChannelPositions readFrom(ByteArrayCodecInput in) {
        Map<Integer, Long> inputs = read(in);
        Map<Integer, Long> outputs = read(in);
        return new ChannelPositions(inputs, outputs, in.readVarLong());
    }

    private static void write(Map<Integer, Long> positions, ByteArrayCodecOutput out) {
        out.writeLength(positions.size());
        for (Map.Entry<Integer, Long> entry : new TreeMap<>(positions).entrySet()) {
            out.writeVarLong(entry.getKey());
            out.writeVarLong(entry.getValue());
        }
    }

    private static Map<Integer, Long> read(ByteArrayCodecInput in) {
        int count = in.readCount("channel positions");
        Map<Integer, Long> positions = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            long index = in.readVarLong();
            if (index < 0 || index > Integer.MAX_VALUE) {
                throw new CodecException("channel index " + index + " out of range");
            }
            positions.put((int) index, in.readVarLong());
        }
        return positions;
    }
}
