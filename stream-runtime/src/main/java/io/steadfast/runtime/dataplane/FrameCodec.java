package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.dataplane.MalformedFrameException.Reason;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Encodes and strictly decodes data plane messages. A message is one ZeroMQ header part, followed for
 * {@link MessageType#DATA} by exactly one payload part (sent without copying), and for {@link MessageType#BUNDLE} by
 * one payload part holding its frames' payloads back to back; one ZeroMQ message carries one or more of them in a
 * row ({@link WireBatch}). Header layout, big-endian:
 *
 * <pre>
 *   int   magic 'SFDP'
 *   byte  version (3)
 *   byte  type (see {@link MessageType})
 *   byte  topology id length n (1..63), then n bytes UTF-8
 *   int   channel index (>= 0)
 *   int   channel epoch (>= 0): the deployment of the plan the channel belongs to
 *   DATA:             long firstSeq (>= 1), int eventCount (>= 0), int payloadLength (0..maxFrameBytes)
 *   BUNDLE:           as DATA (eventCount >= 1: the frames' events together), then int parts (2..MAX_BUNDLE_PARTS)
 *                     and each part's payload length (>= 0), which add up to payloadLength
 *   ACK, SYNC_REPLY:  long deliveredSeq (>= 0), long consumedSeq (0..deliveredSeq), int creditFrames (>= 1)
 *   SYNC:             long nextSeq (>= 1)
 * </pre>
 *
 * Decoding rejects anything truncated, trailing, inconsistent or unknown with a specific {@link Reason}.
 * Safe to share between threads: apart from the configured limit it only remembers the topology ids it has
 * validated (a bounded, concurrent cache), so that a frame's id is not checked against the pattern again.
 */
final class FrameCodec {

    static final int MAGIC = 0x53464450; // "SFDP"
    /**
     * 4: {@link MessageType#BUNDLE}. 3: several messages per ZeroMQ message; a version 2 peer read one, and took the
     * rest for excess parts.
     */
    static final byte VERSION = 4;
    /** The most frames one {@link MessageType#BUNDLE} carries. */
    static final int MAX_BUNDLE_PARTS = 256;
    private static final int FIXED_PREFIX = 4 + 1 + 1 + 1;
    private static final int MAX_TOPOLOGY_BYTES = 63;

    /** Topology ids decoded and found valid; cleared when it reaches this many (ids of finished jobs pile up). */
    private static final int MAX_KNOWN_TOPOLOGIES = 256;

    private final int maxFrameBytes;
    private final Map<String, TopologyId> knownTopologies = new ConcurrentHashMap<>();

    FrameCodec(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Whether this header part, as far as its first bytes tell, is a {@link MessageType#DATA} or
     * {@link MessageType#BUNDLE} header and so has a payload part after it. Looks at magic and type only: whatever
     * else is wrong shows when it is decoded.
     */
    static boolean announcesPayload(byte[] header) {
        return header != null && header.length >= 6 && ByteBuffer.wrap(header).getInt(0) == MAGIC
                && (header[5] == MessageType.DATA.code() || header[5] == MessageType.BUNDLE.code());
    }

    int maxFrameBytes() {
        return maxFrameBytes;
    }

    byte[] encodeDataHeader(ChannelId channel, long firstSeq, int eventCount, int payloadLength) {
        ByteBuffer buffer = start(MessageType.DATA, channel, 8 + 4 + 4);
        buffer.putLong(firstSeq).putInt(eventCount).putInt(payloadLength);
        return buffer.array();
    }

    /**
     * The header of a {@link MessageType#BUNDLE}: events {@code firstSeq ..} of {@code partLengths.length} frames
     * whose payloads follow back to back in one part.
     */
    byte[] encodeBundleHeader(ChannelId channel, long firstSeq, int eventCount, int[] partLengths) {
        if (partLengths.length < 2 || partLengths.length > MAX_BUNDLE_PARTS) {
            throw new IllegalArgumentException("a bundle carries 2.." + MAX_BUNDLE_PARTS + " frames, not "
                    + partLengths.length);
        }
        int payloadLength = 0;
        for (int length : partLengths) {
            payloadLength += length;
        }
        ByteBuffer buffer = start(MessageType.BUNDLE, channel, 8 + 4 + 4 + 4 + 4 * partLengths.length);
        buffer.putLong(firstSeq).putInt(eventCount).putInt(payloadLength).putInt(partLengths.length);
        for (int length : partLengths) {
            buffer.putInt(length);
        }
        return buffer.array();
    }

    byte[] encodePosition(MessageType type, ChannelId channel, long deliveredSeq, long consumedSeq,
            int creditFrames) {
        if (type != MessageType.ACK && type != MessageType.SYNC_REPLY) {
            throw new IllegalArgumentException("a position is sent as ACK or SYNC_REPLY, not " + type);
        }
        ByteBuffer buffer = start(type, channel, 8 + 8 + 4);
        buffer.putLong(deliveredSeq).putLong(consumedSeq).putInt(creditFrames);
        return buffer.array();
    }

    byte[] encodeSync(ChannelId channel, long nextSeq) {
        ByteBuffer buffer = start(MessageType.SYNC, channel, 8);
        buffer.putLong(nextSeq);
        return buffer.array();
    }

    private static ByteBuffer start(MessageType type, ChannelId channel, int bodyBytes) {
        byte[] topology = channel.topology().value().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(FIXED_PREFIX + topology.length + 8 + bodyBytes);
        buffer.putInt(MAGIC).put(VERSION).put(type.code()).put((byte) topology.length).put(topology)
                .putInt(channel.index()).putInt(channel.epoch());
        return buffer;
    }

    /**
     * @param header  the first ZeroMQ part
     * @param payload the second part, or null if the message had only one part
     */
    WireMessage decode(byte[] header, byte[] payload) throws MalformedFrameException {
        ByteBuffer in = ByteBuffer.wrap(header);
        require(in, FIXED_PREFIX, "header prefix");
        int magic = in.getInt();
        if (magic != MAGIC) {
            throw new MalformedFrameException(Reason.BAD_MAGIC, "magic 0x" + Integer.toHexString(magic));
        }
        byte version = in.get();
        if (version != VERSION) {
            throw new MalformedFrameException(Reason.BAD_VERSION, "version " + version + ", supported " + VERSION);
        }
        byte typeCode = in.get();
        MessageType type = MessageType.ofCode(typeCode);
        if (type == null) {
            throw new MalformedFrameException(Reason.UNKNOWN_TYPE, "type code " + typeCode);
        }
        ChannelId channel = decodeChannel(in);
        WireMessage message = switch (type) {
            case DATA -> decodeData(in, channel, payload);
            case BUNDLE -> decodeBundle(in, channel, payload);
            case ACK, SYNC_REPLY -> decodePosition(in, type, channel);
            case SYNC -> decodeSync(in, channel);
        };
        if (in.hasRemaining()) {
            throw new MalformedFrameException(Reason.TRAILING_BYTES, in.remaining() + " bytes after " + type);
        }
        if (type != MessageType.DATA && type != MessageType.BUNDLE && payload != null) {
            throw new MalformedFrameException(Reason.UNEXPECTED_PAYLOAD, type + " carries no payload part");
        }
        return message;
    }

    private ChannelId decodeChannel(ByteBuffer in) throws MalformedFrameException {
        int length = Byte.toUnsignedInt(in.get());
        if (length < 1 || length > MAX_TOPOLOGY_BYTES) {
            throw new MalformedFrameException(Reason.BAD_TOPOLOGY, "topology id length " + length);
        }
        require(in, length + 8, "topology id, channel index and epoch");
        String topology = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        TopologyId topologyId = knownTopology(topology);
        int index = in.getInt();
        if (index < 0) {
            throw new MalformedFrameException(Reason.BAD_CHANNEL_INDEX, "channel index " + index);
        }
        int epoch = in.getInt();
        if (epoch < 0) {
            throw new MalformedFrameException(Reason.BAD_CHANNEL_INDEX, "channel epoch " + epoch);
        }
        return new ChannelId(topologyId, index, epoch);
    }

    private TopologyId knownTopology(String topology) throws MalformedFrameException {
        TopologyId known = knownTopologies.get(topology);
        if (known != null) {
            return known;
        }
        if (!TopologyId.isValid(topology)) {
            throw new MalformedFrameException(Reason.BAD_TOPOLOGY, "invalid topology id");
        }
        if (knownTopologies.size() >= MAX_KNOWN_TOPOLOGIES) {
            knownTopologies.clear();
        }
        TopologyId id = TopologyId.of(topology);
        knownTopologies.put(topology, id);
        return id;
    }

    private WireMessage.Data decodeData(ByteBuffer in, ChannelId channel, byte[] payload)
            throws MalformedFrameException {
        require(in, 16, "DATA fields");
        long firstSeq = in.getLong();
        int eventCount = in.getInt();
        int payloadLength = in.getInt();
        if (firstSeq < 1) {
            throw new MalformedFrameException(Reason.BAD_SEQUENCE, "firstSeq " + firstSeq);
        }
        if (eventCount < 0) {
            throw new MalformedFrameException(Reason.BAD_EVENT_COUNT, "eventCount " + eventCount);
        }
        if (firstSeq > Long.MAX_VALUE - eventCount) {
            throw new MalformedFrameException(Reason.BAD_SEQUENCE, "firstSeq " + firstSeq + " + eventCount "
                    + eventCount + " overflows");
        }
        if (payloadLength < 0) {
            throw new MalformedFrameException(Reason.NEGATIVE_LENGTH, "payload length " + payloadLength);
        }
        if (payloadLength > maxFrameBytes || (payload != null && payload.length > maxFrameBytes)) {
            throw new MalformedFrameException(Reason.OVERSIZED, "payload of "
                    + Math.max(payloadLength, payload == null ? 0 : payload.length) + " bytes, limit "
                    + maxFrameBytes);
        }
        if (payload == null) {
            throw new MalformedFrameException(Reason.MISSING_PAYLOAD, "DATA without payload part");
        }
        if (payload.length != payloadLength) {
            throw new MalformedFrameException(Reason.LENGTH_MISMATCH, "header says " + payloadLength
                    + " payload bytes, part has " + payload.length);
        }
        return new WireMessage.Data(channel, firstSeq, eventCount, payload, null);
    }

    private WireMessage.Data decodeBundle(ByteBuffer in, ChannelId channel, byte[] payload)
            throws MalformedFrameException {
        WireMessage.Data whole = decodeData(in, channel, payload);
        if (whole.eventCount() < 1) {
            throw new MalformedFrameException(Reason.BAD_EVENT_COUNT, "bundle of eventCount " + whole.eventCount());
        }
        require(in, 4, "BUNDLE part count");
        int parts = in.getInt();
        if (parts < 2 || parts > MAX_BUNDLE_PARTS) {
            throw new MalformedFrameException(Reason.BAD_PART_COUNT, "bundle of " + parts + " frames, allowed 2.."
                    + MAX_BUNDLE_PARTS);
        }
        require(in, 4 * parts, "BUNDLE part lengths");
        int[] partEnds = new int[parts];
        long end = 0;
        for (int i = 0; i < parts; i++) {
            int length = in.getInt();
            if (length < 0) {
                throw new MalformedFrameException(Reason.NEGATIVE_LENGTH, "bundle part " + i + " of " + length
                        + " bytes");
            }
            end += length;
            if (end > whole.payload().length) {
                break; // told below
            }
            partEnds[i] = (int) end;
        }
        if (end != whole.payload().length) {
            throw new MalformedFrameException(Reason.LENGTH_MISMATCH, "bundle parts add up to " + end
                    + " bytes, payload has " + whole.payload().length);
        }
        return new WireMessage.Data(channel, whole.firstSeq(), whole.eventCount(), whole.payload(), partEnds);
    }

    private static WireMessage.Position decodePosition(ByteBuffer in, MessageType type, ChannelId channel)
            throws MalformedFrameException {
        require(in, 20, type + " fields");
        long deliveredSeq = in.getLong();
        long consumedSeq = in.getLong();
        int creditFrames = in.getInt();
        if (deliveredSeq < 0 || consumedSeq < 0 || consumedSeq > deliveredSeq) {
            throw new MalformedFrameException(Reason.BAD_SEQUENCE, "deliveredSeq " + deliveredSeq
                    + ", consumedSeq " + consumedSeq);
        }
        if (creditFrames < 1) {
            throw new MalformedFrameException(Reason.BAD_CREDIT, "creditFrames " + creditFrames);
        }
        return new WireMessage.Position(type, channel, deliveredSeq, consumedSeq, creditFrames);
    }

    private static WireMessage.Sync decodeSync(ByteBuffer in, ChannelId channel) throws MalformedFrameException {
        require(in, 8, "SYNC fields");
        long nextSeq = in.getLong();
        if (nextSeq < 1) {
            throw new MalformedFrameException(Reason.BAD_SEQUENCE, "nextSeq " + nextSeq);
        }
        return new WireMessage.Sync(channel, nextSeq);
    }

    private static void require(ByteBuffer in, int bytes, String what) throws MalformedFrameException {
        if (in.remaining() < bytes) {
            throw new MalformedFrameException(Reason.TRUNCATED, what + " needs " + bytes + " bytes, "
                    + in.remaining() + " left");
        }
    }
}
