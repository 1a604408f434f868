package io.steadfast.runtime.task;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.util.Arrays;
import java.util.Objects;

/**
 * The state of one task's operator at one point: the operator type it belongs to, the bytes its driver wrote,
 * and where the task's channels stood ({@link ChannelPositions}). Restoring checks the type, so a snapshot is
 * never fed to a different operator. Immutable.
 */
public final class OperatorSnapshot {

    private static final int MAGIC = 0x53464F53; // "SFOS"
    private static final int VERSION_WITHOUT_POSITIONS = 1;
    private static final int VERSION = 2;

    private final String operatorType;
    private final byte[] state;
    private final ChannelPositions positions;

    private OperatorSnapshot(String operatorType, byte[] state, ChannelPositions positions) {
        this.operatorType = Objects.requireNonNull(operatorType);
        this.state = state;
        this.positions = Objects.requireNonNull(positions);
    }

    /** Snapshots a driver synchronously on the calling (task) thread, without channel positions. */
    public static OperatorSnapshot take(String operatorType, OperatorDriver driver) {
        return prepare(operatorType, driver, ChannelPositions.NONE).write();
    }

    /**
     * Detaches the driver's state on the calling (task) thread; {@link Prepared#write()} encodes it later on
     * any thread.
     */
    public static Prepared prepare(String operatorType, OperatorDriver driver, ChannelPositions positions) {
        return new Prepared(operatorType, driver.prepareSnapshot(), positions);
    }

    /** A snapshot detached from its operator, not yet encoded. */
    public static final class Prepared {

        private final String operatorType;
        private final OperatorDriver.PreparedSnapshot state;
        private final ChannelPositions positions;

        private Prepared(String operatorType, OperatorDriver.PreparedSnapshot state, ChannelPositions positions) {
            this.operatorType = operatorType;
            this.state = state;
            this.positions = positions;
        }

        /** Encodes the snapshot; any thread, once. */
        public OperatorSnapshot write() {
            ByteArrayCodecOutput out = new ByteArrayCodecOutput(4096);
            state.writeTo(out);
            return new OperatorSnapshot(operatorType, out.toByteArray(), positions);
        }
    }

    /** Restores a freshly created driver of the same operator type. */
    public void restoreInto(String expectedType, OperatorDriver driver) {
        if (!operatorType.equals(expectedType)) {
            throw new IllegalArgumentException("Snapshot of operator type '" + operatorType
                    + "' cannot restore an operator of type '" + expectedType + "'");
        }
        ByteArrayCodecInput in = new ByteArrayCodecInput(state);
        driver.restore(in);
        if (in.remaining() != 0) {
            throw new CodecException(in.remaining() + " bytes left over after restoring " + operatorType);
        }
    }

    public String operatorType() {
        return operatorType;
    }

    public int sizeInBytes() {
        return state.length;
    }

    public ChannelPositions positions() {
        return positions;
    }

    public byte[] toBytes() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(state.length + 64);
        out.writeInt(MAGIC);
        out.writeByte(VERSION);
        out.writeString(operatorType);
        out.writeBytes(state);
        positions.writeTo(out);
        return out.toByteArray();
    }

    public static OperatorSnapshot fromBytes(byte[] bytes) {
        ByteArrayCodecInput in = new ByteArrayCodecInput(bytes);
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new CodecException("not an operator snapshot (magic " + Integer.toHexString(magic) + ")");
        }
        int version = in.readByte();
        if (version != VERSION && version != VERSION_WITHOUT_POSITIONS) {
            throw new CodecException("operator snapshot version " + version + " is not supported");
        }
        String type = in.readString();
        byte[] state = in.readBytes();
        ChannelPositions positions = version == VERSION ? ChannelPositions.readFrom(in) : ChannelPositions.NONE;
        if (in.remaining() != 0) {
            throw new CodecException(in.remaining() + " trailing bytes after an operator snapshot");
        }
        return new OperatorSnapshot(type, state, positions);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OperatorSnapshot that && operatorType.equals(that.operatorType)
                && Arrays.equals(state, that.state) && positions.equals(that.positions);
    }

    @Override
    public int hashCode() {
        return 31 * operatorType.hashCode() + Arrays.hashCode(state);
    }

    @Override
    public String toString() {
        return "snapshot of " + operatorType + " (" + state.length + " bytes)";
    }
}
