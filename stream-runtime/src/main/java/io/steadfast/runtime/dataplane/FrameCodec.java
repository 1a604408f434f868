package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.dataplane.MalformedFrameException.Reason;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * Encodes and strictly decodes data plane messages. A message is one ZeroMQ header part, followed for
 * {@link MessageType#DATA} by exactly one payload part (sent without copying), and for {@link MessageType#BUNDLE} by
 * one payload part holding its frames' payloads back to back; one ZeroMQ message carries one or more of them in a
 * row ({@link WireBatch}). Header layout, big-endian:
 *
 * <pre>
 *   int   magic 'SFDP'
 *   byte  version (5)
 *   byte  type (see {@link MessageType})
 *   byte  topology id length n (1..63), then n bytes UTF-8
 *   int   channel index (>= 0)
 *   int   channel epoch (>= 0): the deployment of the plan the channel belongs to
 *   int   incarnation (>= 0) of the task that wrote the message: the sending task's on DATA, BUNDLE and SYNC
 *         (senderIncarnation), the receiving task's on ACK and SYNC_REPLY (receiverIncarnation)
 *   DATA:             long firstSeq (>= 1), int eventCount (>= 0), int payloadLength (0..maxFrameBytes)
 *   BUNDLE:           as DATA, then int parts (2..MAX_BUNDLE_PARTS) and each part's payload length (>= 0), which
 *                     add up to payloadLength; eventCount >= parts (only frames of events are bundled)
 *   ACK, SYNC_REPLY:  long deliveredSeq (>= 0), long consumedSeq (0..deliveredSeq), int creditFrames (>= 1)
 *   SYNC:             long nextSeq (>= 1)
 *   int   checksum: CRC32C (Castagnoli) of every byte of the header before it, from the magic on, followed for
 *         DATA and BUNDLE by every byte of the payload part
 * </pre>
 *
 * <p><b>Checks.</b> Decoding rejects anything truncated, trailing, inconsistent, damaged or unknown with a specific
 * {@link Reason}, in this order: magic, version and type (so that a peer of another version is told apart from
 * damage); a payload part present exactly for DATA and BUNDLE, of at most maxFrameBytes; the checksum
 * ({@link Reason#BAD_CHECKSUM}); then every field, and the header's lengths and counts against each other and
 * against the payload part. So every field a receiver acts on — channel, incarnation, sequence numbers, counts,
 * positions and credit — and every payload byte is covered before any channel's position moves. A message that
 * fails the checksum was damaged after its sender sealed it (in memory, a NIC, a proxy): it is dropped and its
 * sender resends it. Damage to the first six bytes shows as a malformed message instead, dropped all the same.
 *
 * <p><b>eventCount.</b> The checksum alone vouches for the header's eventCount against the payload: the data plane
 * carries opaque payloads, and in a task's payload ({@code RecordBatchWriter}) the only count readable without
 * decoding, the leading varint, counts every record — watermarks and determinants too — not the sequenced records
 * eventCount counts. The receiving task checks the count exactly when it decodes the frame
 * ({@code RecordBatchReader}); a frame that passed the checksum and still disagrees was encoded so by its sender,
 * a resend would carry the same bytes, and the task fails rather than skip it ({@code StreamTask}).
 *
 * <p><b>Cost.</b> The checksum of a DATA frame is computed once, by the producing thread as it hands the frame over
 * (a resend reuses the header); a bundle's on the IO thread as it joins its frames' payloads; the receiving IO thread
 * checks every message. CRC32C is an intrinsic of the JVM on x86 (SSE 4.2) and aarch64.
 *
 * <p>Safe to share between threads: apart from the configured limit it only remembers the topology ids it has
 * validated (a bounded, concurrent cache), so that a frame's id is not checked against the pattern again, and keeps
 * one checksum object per thread.
 */
final class FrameCodec {

    static final int MAGIC = 0x53464450; // "SFDP"
    /**
     * 5: a checksum (CRC32C) ends every header, and every header carries the incarnation of the task that wrote it.
     * 4: {@link MessageType#BUNDLE}. 3: several messages per ZeroMQ message; a version 2 peer read one, and took the
     * rest for excess parts.
     */
    static final byte VERSION = 5;
    /** The most frames one {@link MessageType#BUNDLE} carries. */
    static final int MAX_BUNDLE_PARTS = 256;
    static final int CHECKSUM_BYTES = 4;
    private static final int FIXED_PREFIX = 4 + 1 + 1 + 1;
    private static final int MAX_TOPOLOGY_BYTES = 63;
    /** One per thread: the producing tasks' threads seal DATA headers, the IO thread seals and checks the rest. */
    private static final ThreadLocal<CRC32C> CHECKSUMS = ThreadLocal.withInitial(CRC32C::new);

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

    /** The header of a {@link MessageType#DATA} frame of events {@code firstSeq ..}, sealed over {@code payload}. */
    byte[] encodeDataHeader(ChannelId channel, int senderIncarnation, long firstSeq, int eventCount, byte[] payload) {
        ByteBuffer buffer = start(MessageType.DATA, channel, senderIncarnation, 8 + 4 + 4);
        buffer.putLong(firstSeq).putInt(eventCount).putInt(payload.length);
        return seal(buffer, payload);
    }

    /**
     * The header of a {@link MessageType#BUNDLE}: events {@code firstSeq ..} of {@code partLengths.length} frames
     * whose payloads follow back to back in {@code payload}.
     */
    byte[] encodeBundleHeader(ChannelId channel, int senderIncarnation, long firstSeq, int eventCount,
            int[] partLengths, byte[] payload) {
        if (partLengths.length < 2 || partLengths.length > MAX_BUNDLE_PARTS) {
            throw new IllegalArgumentException("a bundle carries 2.." + MAX_BUNDLE_PARTS + " frames, not "
                    + partLengths.length);
        }
        long payloadLength = 0;
        for (int length : partLengths) {
            payloadLength += length;
        }
        if (payloadLength != payload.length) {
            throw new IllegalArgumentException("bundle parts of " + payloadLength + " bytes for a payload of "
                    + payload.length);
        }
        ByteBuffer buffer = start(MessageType.BUNDLE, channel, senderIncarnation,
                8 + 4 + 4 + 4 + 4 * partLengths.length);
        buffer.putLong(firstSeq).putInt(eventCount).putInt(payload.length).putInt(partLengths.length);
        for (int length : partLengths) {
            buffer.putInt(length);
        }
        return seal(buffer, payload);
    }

    byte[] encodePosition(MessageType type, ChannelId channel, int receiverIncarnation, long deliveredSeq,
            long consumedSeq, int creditFrames) {
        if (type != MessageType.ACK && type != MessageType.SYNC_REPLY) {
            throw new IllegalArgumentException("a position is sent as ACK or SYNC_REPLY, not " + type);
        }
        ByteBuffer buffer = start(type, channel, receiverIncarnation, 8 + 8 + 4);
        buffer.putLong(deliveredSeq).putLong(consumedSeq).putInt(creditFrames);
        return seal(buffer, null);
    }

    byte[] encodeSync(ChannelId channel, int senderIncarnation, long nextSeq) {
        ByteBuffer buffer = start(MessageType.SYNC, channel, senderIncarnation, 8);
        buffer.putLong(nextSeq);
        return seal(buffer, null);
    }

    private static ByteBuffer start(MessageType type, ChannelId channel, int incarnation, int bodyBytes) {
        if (incarnation < 0) {
            throw new IllegalArgumentException("incarnation of channel " + channel + " must be >= 0, was "
                    + incarnation);
        }
        byte[] topology = channel.topology().value().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(FIXED_PREFIX + topology.length + 8 + 4 + bodyBytes + CHECKSUM_BYTES);
        buffer.putInt(MAGIC).put(VERSION).put(type.code()).put((byte) topology.length).put(topology)
                .putInt(channel.index()).putInt(channel.epoch()).putInt(incarnation);
        return buffer;
    }

    /** Ends the header with the checksum of everything before it and of the payload; returns the header. */
    private static byte[] seal(ByteBuffer buffer, byte[] payload) {
        buffer.putInt(checksum(buffer.array(), buffer.position(), payload));
        return buffer.array();
    }

    /**
     * The CRC32C of {@code header[0 .. headerBytes)} followed by {@code payload} (none if null): what a header's last
     * field carries, computed over the bytes before it.
     */
    static int checksum(byte[] header, int headerBytes, byte[] payload) {
        CRC32C crc = CHECKSUMS.get();
        crc.reset();
        crc.update(header, 0, headerBytes);
        if (payload != null) {
            crc.update(payload, 0, payload.length);
        }
        return (int) crc.getValue();
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
        requirePayloadPart(type, payload);
        verifyChecksum(header, payload);
        // the fields end where the checksum begins
        in.limit(header.length - CHECKSUM_BYTES);
        ChannelId channel = decodeChannel(in);
        int incarnation = decodeIncarnation(in);
        WireMessage message = switch (type) {
            case DATA -> decodeData(in, channel, incarnation, payload);
            case BUNDLE -> decodeBundle(in, channel, incarnation, payload);
            case ACK, SYNC_REPLY -> decodePosition(in, type, channel, incarnation);
            case SYNC -> decodeSync(in, channel, incarnation);
        };
        if (in.hasRemaining()) {
            throw new MalformedFrameException(Reason.TRAILING_BYTES, in.remaining() + " bytes after " + type);
        }
        return message;
    }

    /**
     * The channel a header names, read with no check beyond its layout (not the checksum): for a message dropped as
     * damaged or malformed, the channel it most likely belongs to. Null if not even that can be read.
     */
    ChannelId channelNamedBy(byte[] header) {
        if (header == null || header.length < FIXED_PREFIX || ByteBuffer.wrap(header).getInt(0) != MAGIC) {
            return null;
        }
        try {
            // the channel begins with the topology id's length, the last byte of the fixed prefix
            return decodeChannel(ByteBuffer.wrap(header, FIXED_PREFIX - 1, header.length - FIXED_PREFIX + 1));
        } catch (MalformedFrameException | RuntimeException e) {
            return null;
        }
    }

    private void requirePayloadPart(MessageType type, byte[] payload) throws MalformedFrameException {
        boolean carriesPayload = type == MessageType.DATA || type == MessageType.BUNDLE;
        if (carriesPayload && payload == null) {
            throw new MalformedFrameException(Reason.MISSING_PAYLOAD, type + " without payload part");
        }
        if (!carriesPayload && payload != null) {
            throw new MalformedFrameException(Reason.UNEXPECTED_PAYLOAD, type + " carries no payload part");
        }
        if (payload != null && payload.length > maxFrameBytes) {
            throw new MalformedFrameException(Reason.OVERSIZED, "payload of " + payload.length + " bytes, limit "
                    + maxFrameBytes);
        }
    }

    private static void verifyChecksum(byte[] header, byte[] payload) throws MalformedFrameException {
        if (header.length < FIXED_PREFIX + CHECKSUM_BYTES) {
            throw new MalformedFrameException(Reason.TRUNCATED, "a header of " + header.length + " bytes has no room"
                    + " for its checksum");
        }
        int fieldsEnd = header.length - CHECKSUM_BYTES;
        int carried = ByteBuffer.wrap(header).getInt(fieldsEnd);
        int computed = checksum(header, fieldsEnd, payload);
        if (carried != computed) {
            throw new MalformedFrameException(Reason.BAD_CHECKSUM, "header of " + header.length + " bytes and "
                    + (payload == null ? "no payload" : "a payload of " + payload.length + " bytes") + " carry CRC32C 0x"
                    + Integer.toHexString(carried) + ", computed 0x" + Integer.toHexString(computed));
        }
    }

    private ChannelId decodeChannel(ByteBuffer in) throws MalformedFrameException {
        require(in, 1, "topology id length");
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

    private static int decodeIncarnation(ByteBuffer in) throws MalformedFrameException {
        require(in, 4, "incarnation");
        int incarnation = in.getInt();
        if (incarnation < 0) {
            throw new MalformedFrameException(Reason.BAD_INCARNATION, "incarnation " + incarnation);
        }
        return incarnation;
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

    private WireMessage.Data decodeData(ByteBuffer in, ChannelId channel, int incarnation, byte[] payload)
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
        if (payloadLength > maxFrameBytes) {
            throw new MalformedFrameException(Reason.OVERSIZED, "payload of " + payloadLength + " bytes, limit "
                    + maxFrameBytes);
        }
        if (payload.length != payloadLength) {
            throw new MalformedFrameException(Reason.LENGTH_MISMATCH, "header says " + payloadLength
                    + " payload bytes, part has " + payload.length);
        }
        return new WireMessage.Data(channel, incarnation, firstSeq, eventCount, payload, null);
    }

    private WireMessage.Data decodeBundle(ByteBuffer in, ChannelId channel, int incarnation, byte[] payload)
            throws MalformedFrameException {
        WireMessage.Data whole = decodeData(in, channel, incarnation, payload);
        require(in, 4, "BUNDLE part count");
        int parts = in.getInt();
        if (parts < 2 || parts > MAX_BUNDLE_PARTS) {
            throw new MalformedFrameException(Reason.BAD_PART_COUNT, "bundle of " + parts + " frames, allowed 2.."
                    + MAX_BUNDLE_PARTS);
        }
        if (whole.eventCount() < parts) {
            throw new MalformedFrameException(Reason.BAD_EVENT_COUNT, "bundle of " + parts + " frames and "
                    + whole.eventCount() + " events; each frame of a bundle carries events");
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
        return new WireMessage.Data(channel, incarnation, whole.firstSeq(), whole.eventCount(), whole.payload(),
                partEnds);
    }

    private static WireMessage.Position decodePosition(ByteBuffer in, MessageType type, ChannelId channel,
            int incarnation) throws MalformedFrameException {
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
        return new WireMessage.Position(type, channel, incarnation, deliveredSeq, consumedSeq, creditFrames);
    }

    private static WireMessage.Sync decodeSync(ByteBuffer in, ChannelId channel, int incarnation)
            throws MalformedFrameException {
        require(in, 8, "SYNC fields");
        long nextSeq = in.getLong();
        if (nextSeq < 1) {
            throw new MalformedFrameException(Reason.BAD_SEQUENCE, "nextSeq " + nextSeq);
        }
        return new WireMessage.Sync(channel, incarnation, nextSeq);
    }

    private static void require(ByteBuffer in, int bytes, String what) throws MalformedFrameException {
        if (in.remaining() < bytes) {
            throw new MalformedFrameException(Reason.TRUNCATED, what + " needs " + bytes + " bytes, "
                    + in.remaining() + " left");
        }
    }
}
