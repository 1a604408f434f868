package io.steadfast.runtime.voting;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The outcome of one vote. Its sets of versions iterate in ascending order.
 *
 * @param outcome   whether the versions agreed, and if not what the vote did
 * @param values    what the vote task emits for the input: the values of the first agreeing version (in the order
 *                  of {@code versions}), the median, or nothing
 * @param agreeing  the versions whose ballots agreed with the result (the winning group, or those within epsilon of
 *                  the median); empty when nothing was emitted
 * @param outvoted  the versions that cast a ballot that did not agree with the result (every one that voted, when
 *                  nothing was emitted)
 * @param missing   the versions that cast no ballot: late, failed or excluded
 */
public record Verdict(Outcome outcome, List<Object> values, Set<Integer> agreeing, Set<Integer> outvoted,
                      Set<Integer> missing) {

    /** Whether a vote found a result. */
    public enum Outcome {
        /** A group of agreeing versions reached the quorum ({@code MEDIAN}: a quorum of numbers gave the median). */
        AGREED,
        /** No group reached the quorum; the median of the numbers present was emitted instead. */
        MEDIAN_OF_DISAGREEMENT,
        /** No group reached the quorum; nothing was emitted and the input is counted as dropped. */
        DROPPED,
        /** No group reached the quorum and the rules say the task fails. */
        FAILED
    }

    public Verdict {
        Objects.requireNonNull(outcome, "outcome");
        values = List.copyOf(values);
        agreeing = VersionSet.copyOf(agreeing);
        outvoted = VersionSet.copyOf(outvoted);
        missing = VersionSet.copyOf(missing);
    }

    /** Whether the vote emits {@link #values()}. */
    public boolean emits() {
        return outcome == Outcome.AGREED || outcome == Outcome.MEDIAN_OF_DISAGREEMENT;
    }
}
