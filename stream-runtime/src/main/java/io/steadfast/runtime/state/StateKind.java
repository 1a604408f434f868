package io.steadfast.runtime.state;

/** The kinds of keyed state; the code is part of the snapshot format. */
public enum StateKind {
    VALUE(0),
    MAP(1);

    private final int code;

    StateKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static StateKind ofCode(int code) {
        for (StateKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown state kind code " + code);
    }
}
