package io.steadfast.runtime.voting;

import java.util.List;

/**
 * A ballot as it travels from a version task to its vote task, as the value of an event with the input's key and
 * event time: which input it answers ({@code origin}, {@code seq}), which version cast it, and what the version
 * emitted for that input. Every version takes the same records in the same order on its copy of each input channel,
 * so (origin, seq) names one input alike in every version, whatever order a version merged its inputs in.
 *
 * <p>On the wire it is a list {@code [origin, seq, version, values]}, which the value codecs carry without a codec
 * of its own, with whatever registered types the values have.
 *
 * @param origin the input channel the input came on, as a number the same in every version ({@link #origin(int, int,
 *               int)}); or {@link #TIMER_ORIGIN} for what a version emitted from an event-time timer
 * @param seq    the input's sequence number on that channel; for a timer, its timestamp
 * @param version the version's index in the operator's {@code versions}
 * @param values what the version emitted for the input, in order (possibly nothing)
 */
public record VersionBallot(long origin, long seq, int version, List<Object> values) {

    /** The origin of ballots of what versions emit from event-time timers, which fire alike in every version. */
    public static final long TIMER_ORIGIN = -1;
    private static final int FIELD_BITS = 20;
    private static final int FIELD_LIMIT = 1 << FIELD_BITS;

    public VersionBallot {
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, was " + version);
        }
        values = List.copyOf(values);
    }

    /**
     * The origin of the inputs a version's subtask takes from one upstream task in one deployment of the plan: the
     * same number in every version of that subtask, and new after a global restore (which starts the sequence
     * numbers over).
     *
     * @param upstream the upstream task's place among the subtask's upstream tasks, in an order every version shares
     * @param subtask  the version task's subtask
     * @param epoch    the plan's deployment epoch
     * @throws IllegalArgumentException if the upstream place or the subtask is not below 2^20
     */
    public static long origin(int upstream, int subtask, int epoch) {
        if (upstream < 0 || upstream >= FIELD_LIMIT || subtask < 0 || subtask >= FIELD_LIMIT || epoch < 0) {
            throw new IllegalArgumentException("an input origin needs an upstream place and a subtask in 0.."
                    + (FIELD_LIMIT - 1) + " and an epoch of at least 0, got " + upstream + ", " + subtask + ", "
                    + epoch);
        }
        return (long) epoch << 2 * FIELD_BITS | (long) upstream << FIELD_BITS | subtask;
    }

    /** The event value that carries this ballot. */
    public List<Object> toWire() {
        return List.of(origin, seq, version, values);
    }

    /**
     * Reads a ballot from an event value.
     *
     * @throws IllegalArgumentException if the value is not a ballot, naming what is wrong: a vote task was wired to
     *                                  something that is not a version of its operator
     */
    public static VersionBallot fromWire(Object value) {
        if (!(value instanceof List<?> wire) || wire.size() != 4 || !(wire.get(0) instanceof Long origin)
                || !(wire.get(1) instanceof Long seq) || !(wire.get(2) instanceof Integer version)
                || !(wire.get(3) instanceof List<?> values)) {
            throw new IllegalArgumentException("A vote task got " + describe(value) + " where it expects a ballot"
                    + " [origin, seq, version, values] from a version of its operator");
        }
        @SuppressWarnings("unchecked")
        List<Object> typed = (List<Object>) values;
        return new VersionBallot(origin, seq, version, typed);
    }

    private static String describe(Object value) {
        return value == null ? "null" : "a " + value.getClass().getSimpleName();
    }

    /** The ballot the voting policy compares. */
    public Ballot ballot() {
        return new Ballot(version, values);
    }
}
