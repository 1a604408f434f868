package io.steadfast.runtime.codec;

import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.ValueCodec;

/** A small user value type with its codec, for tests of registered codecs. */
record Point(int x, int y) {

    static final ValueCodec<Point> CODEC = new ValueCodec<>() {
        @Override
        public String name() {
            return "point";
        }

        @Override
        public Class<Point> type() {
            return Point.class;
        }

        @Override
        public void encode(Point value, CodecOutput out) {
            out.writeVarInt(value.x());
            out.writeVarInt(value.y());
        }

        @Override
        public Point decode(CodecInput in) {
            return new Point(in.readVarInt(), in.readVarInt());
        }
    };
}
