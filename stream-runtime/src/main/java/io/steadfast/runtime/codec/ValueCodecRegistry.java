package io.steadfast.runtime.codec;

import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.codec.ValueCodec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes event values of any registered type with a one-byte type tag, so that channels need no per-edge
 * type negotiation: null, long, int, double, boolean, string and bytes have their own tags; lists of such values
 * (nested too) have one, and decode as unmodifiable lists; values of other registered types are written with
 * their codec's name. Immutable and thread-safe once built.
 */
public final class ValueCodecRegistry {

    private static final List<ValueCodec<?>> BUILT_IN_CODECS = List.of(Codecs.LONG, Codecs.INT, Codecs.DOUBLE,
            Codecs.BOOLEAN, Codecs.STRING, Codecs.BYTES, Codecs.ANY);
    private static final ValueCodecRegistry BUILT_IN = new ValueCodecRegistry(List.of());

    /** The tag of a list of values, each written with its own tag; one past {@link Codecs#NAMED_TAG}. */
    static final int LIST_TAG = Codecs.NAMED_TAG + 1;
    /** The most values a decoded list may claim, so that a damaged length cannot allocate without bound. */
    private static final int MAX_LIST_SIZE = 1 << 24;

    private final Map<Class<?>, ValueCodec<?>> byType = new HashMap<>();
    private final Map<String, ValueCodec<?>> byName = new HashMap<>();

    private ValueCodecRegistry(Collection<ValueCodec<?>> userCodecs) {
        for (ValueCodec<?> codec : userCodecs) {
            for (ValueCodec<?> builtIn : BUILT_IN_CODECS) {
                if (builtIn.name().equals(codec.name())) {
                    throw new IllegalArgumentException("Codec " + codec.getClass().getName() + " is named '"
                            + codec.name() + "' like a built-in codec, which snapshots would resolve instead;"
                            + " rename it");
                }
            }
            ValueCodec<?> previous = byName.putIfAbsent(codec.name(), codec);
            if (previous != null) {
                throw new IllegalArgumentException("Two codecs are named '" + codec.name() + "': "
                        + previous.getClass().getName() + " and " + codec.getClass().getName() + "; rename one");
            }
            byType.put(codec.type(), codec);
        }
    }

    /** A registry knowing only the built-in value types. */
    public static ValueCodecRegistry builtIn() {
        return BUILT_IN;
    }

    public static ValueCodecRegistry of(Collection<ValueCodec<?>> userCodecs) {
        return userCodecs.isEmpty() ? BUILT_IN : new ValueCodecRegistry(userCodecs);
    }

    public void write(Object value, CodecOutput out) {
        if (Codecs.encodeTagged(value, out)) {
            return;
        }
        if (value instanceof List<?> list && !byType.containsKey(value.getClass())) {
            out.writeByte(LIST_TAG);
            out.writeVarInt(list.size());
            for (Object element : list) {
                write(element, out);
            }
            return;
        }
        writeNamed(value, out);
    }

    @SuppressWarnings("unchecked")
    private void writeNamed(Object value, CodecOutput out) {
        ValueCodec<Object> codec = (ValueCodec<Object>) byType.get(value.getClass());
        if (codec == null) {
            throw new CodecException("No codec for values of " + value.getClass().getName()
                    + ": register a ValueCodec for it through an OperatorProvider's codecs()");
        }
        out.writeByte(Codecs.NAMED_TAG);
        out.writeString(codec.name());
        codec.encode(value, out);
    }

    public Object read(CodecInput in) {
        int tag = in.readByte();
        if (tag == LIST_TAG) {
            return readList(in);
        }
        return tag == Codecs.NAMED_TAG ? readNamed(in) : Codecs.decodeTagged(tag, in);
    }

    private List<Object> readList(CodecInput in) {
        int size = in.readVarInt();
        if (size < 0 || size > MAX_LIST_SIZE) {
            throw new CodecException("list of " + size + " values is out of range 0.." + MAX_LIST_SIZE);
        }
        List<Object> list = new ArrayList<>(Math.min(size, 64));
        for (int i = 0; i < size; i++) {
            list.add(read(in));
        }
        return Collections.unmodifiableList(list);
    }

    private Object readNamed(CodecInput in) {
        String name = in.readString();
        ValueCodec<?> codec = byName.get(name);
        if (codec == null) {
            throw new CodecException("no codec named '" + name + "' is registered on this host; known: " + byName.keySet());
        }
        return codec.decode(in);
    }

    /** Looks up a codec by name for state snapshots: built-in names first, then registered ones. */
    public ValueCodec<?> codecNamed(String name) {
        for (ValueCodec<?> builtIn : BUILT_IN_CODECS) {
            if (builtIn.name().equals(name)) {
                return builtIn;
            }
        }
        ValueCodec<?> codec = byName.get(name);
        if (codec == null) {
            throw new CodecException("no codec named '" + name + "' is registered on this host");
        }
        return codec;
    }
}
