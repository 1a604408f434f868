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

    private Codecs() {
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
