package io.steadfast.runtime.recovery;

/**
 * Where the earliest run a host holds of a task's decisions lies in the task's log, without the bytes: what a
 * host reports when it points its channels away from a lost task, so that a recovering host can tell whether the
 * run it fetched ahead is still all there is (same span) or must be fetched again. JSON-ready.
 *
 * @param from the log offset of the run's first byte
 * @param end  the offset right after its last byte
 */
public record DecisionSpan(long from, long end) {

    public DecisionSpan {
        if (from < 0 || end < from) {
            throw new IllegalArgumentException("a span needs 0 <= from <= end, not [" + from + ", " + end + ")");
        }
    }

    /** The span of a run. */
    public static DecisionSpan of(HeldDecisions run) {
        return new DecisionSpan(run.from(), run.end());
    }
}
