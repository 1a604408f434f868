package io.steadfast.api.codec;

import io.steadfast.api.annotation.PublicEvolving;

/** The built-in codecs. */
@PublicEvolving
public final class Codecs {

    public static final ValueCodec<Long> LONG = new Simple<>("long", Long.class) {
        @Override
        public void encode(Long value, CodecOutput out) {
            out.writeVarLong(value);
        }

        @Override
        public Long decode(CodecInput in) {
            return in.readVarLong();
        }
    };

    public static final ValueCodec<Integer> INT = new Simple<>("int", Integer.class) {
        @Override
        public void encode(Integer value, CodecOutput out) {
            out.writeVarInt(value);
        }

        @Override
        public Integer decode(CodecInput in) {
            return in.readVarInt();
        }
    };

    public static final ValueCodec<Double> DOUBLE = new Simple<>("double", Double.class) {
        @Override
        public void encode(Double value, CodecOutput out) {
            out.writeDouble(value);
        }

        @Override
        public Double decode(CodecInput in) {
            return in.readDouble();
        }
    };

    public static final ValueCodec<Boolean> BOOLEAN = new Simple<>("boolean", Boolean.class) {
        @Override
        public void encode(Boolean value, CodecOutput out) {
            out.writeBoolean(value);
        }

        @Override
        public Boolean decode(CodecInput in) {
            return in.readBoolean();
        }
    };

    public static final ValueCodec<String> STRING = new Simple<>("string", String.class) {
        @Override
        public void encode(String value, CodecOutput out) {
            out.writeString(value);
        }

        @Override
        public String decode(CodecInput in) {
            return in.readString();
        }
    };

    public static final ValueCodec<byte[]> BYTES = new Simple<>("bytes", byte[].class) {
        @Override
        public void encode(byte[] value, CodecOutput out) {
            out.writeBytes(value);
        }

        @Override
        public byte[] decode(CodecInput in) {
            return in.readBytes();
        }
    };

    /**
     * Any value of the built-in types (null, Long, Integer, Double, Boolean, String, byte[]), written with a
     * one-byte type tag. For state whose values vary in type, such as a sink keeping the latest value of
     * whatever arrives. Values of other types need a codec of their own.
     */
    public static final ValueCodec<Object> ANY = new Simple<>("any", Object.class) {
        @Override
        public void encode(Object value, CodecOutput out) {
            if (!encodeTagged(value, out)) {
                throw new CodecException("Codecs.ANY cannot encode " + value.getClass().getName()
                        + ": declare the state with a codec for that type");
            }
        }

        @Override
        public Object decode(CodecInput in) {
            return decodeTagged(in.readByte(), in);
        }
    };

    /** The tag that {@link #encodeTagged} never writes, left for values of registered codecs. */
    public static final int NAMED_TAG = 7;

    private Codecs() {
    }

    /**
     * Writes a tag byte and the value if it is of a built-in type.
     *
     * @return false, writing nothing, if the value is of another type
     */
    public static boolean encodeTagged(Object value, CodecOutput out) {
        if (value == null) {
            out.writeByte(0);
        } else if (value instanceof Long l) {
            out.writeByte(1);
            out.writeVarLong(l);
        } else if (value instanceof String s) {
            out.writeByte(5);
            out.writeString(s);
        } else if (value instanceof Integer i) {
            out.writeByte(2);
            out.writeVarInt(i);
        } else if (value instanceof Double d) {
            out.writeByte(3);
            out.writeDouble(d);
        } else if (value instanceof Boolean b) {
            out.writeByte(4);
            out.writeBoolean(b);
        } else if (value instanceof byte[] bytes) {
            out.writeByte(6);
            out.writeBytes(bytes);
        } else {
            return false;
        }
        return true;
    }

    /** Reads a value written by {@link #encodeTagged} whose tag byte has been read already. */
    public static Object decodeTagged(int tag, CodecInput in) {
        return switch (tag) {
            case 0 -> null;
            case 1 -> in.readVarLong();
            case 2 -> in.readVarInt();
            case 3 -> in.readDouble();
            case 4 -> in.readBoolean();
            case 5 -> in.readString();
            case 6 -> in.readBytes();
            default -> throw new CodecException("unknown value tag " + tag);
        };
    }

    private abstract static class Simple<T> implements ValueCodec<T> {

        private final String name;
        private final Class<T> type;

        Simple(String name, Class<T> type) {
            this.name = name;
            this.type = type;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Class<T> type() {
            return type;
        }

        @Override
        public String toString() {
            return "codec '" + name + "'";
        }
    }
}
