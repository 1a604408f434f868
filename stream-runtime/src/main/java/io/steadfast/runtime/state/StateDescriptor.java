package io.steadfast.runtime.state;

import io.steadfast.api.codec.ValueCodec;

/**
 * One declared keyed state of an operator: its name, kind, codecs, and the slot it occupies in every
 * {@link KeyEntry}. For value state {@code keyCodec} is null.
 */
public record StateDescriptor(String name, StateKind kind, int slot, ValueCodec<?> keyCodec, ValueCodec<?> valueCodec) {

    boolean sameShapeAs(StateKind otherKind, ValueCodec<?> otherKeyCodec, ValueCodec<?> otherValueCodec) {
        return kind == otherKind && sameCodec(keyCodec, otherKeyCodec) && sameCodec(valueCodec, otherValueCodec);
    }

    private static boolean sameCodec(ValueCodec<?> a, ValueCodec<?> b) {
        return a == null ? b == null : b != null && a.name().equals(b.name());
    }

    String shape() {
        return kind == StateKind.VALUE
                ? "value state with codec '" + valueCodec.name() + "'"
                : "map state with codecs '" + keyCodec.name() + "' -> '" + valueCodec.name() + "'";
    }
}
