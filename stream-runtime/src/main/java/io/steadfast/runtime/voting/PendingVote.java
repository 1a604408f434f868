package io.steadfast.runtime.voting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * One input's vote as its vote task keeps it (in {@link KeyVotes}), from its first ballot until every version's
 * ballot is in (or, for a version that never sends one, a while after the deadline). Immutable: each change is a new
 * one.
 */
final class PendingVote {

    /** The input's origin ({@link VersionBallot#origin()}) and sequence number there: which input it decides. */
    final long origin;
    final long seq;
    /** The input's event time, which the vote's output carries. */
    final long eventTime;
    /** Processing time (epoch ms) at which it is decided with the ballots it has. */
    final long deadlineAt;
    /** The values it emitted once decided (possibly none); null while undecided. */
    private final List<Object> result;
    /** Per version, its ballot's values; null until cast. */
    private final Object[] ballots;

    private PendingVote(long origin, long seq, long eventTime, long deadlineAt, List<Object> result, Object[] ballots) {
        this.origin = origin;
        this.seq = seq;
        this.eventTime = eventTime;
        this.deadlineAt = deadlineAt;
        this.result = result;
        this.ballots = ballots;
    }

    static PendingVote open(long origin, long seq, long eventTime, long deadlineAt, int versions) {
        return new PendingVote(origin, seq, eventTime, deadlineAt, null, new Object[versions]);
    }

    /** A vote as {@link KeyVotes} restores it. */
    static PendingVote restored(long origin, long seq, long eventTime, long deadlineAt, List<Object> result,
                                List<List<Object>> ballots) {
        return new PendingVote(origin, seq, eventTime, deadlineAt, result, ballots.toArray());
    }

    boolean decided() {
        return result != null;
    }

    boolean isFor(long origin, long seq) {
        return this.origin == origin && this.seq == seq;
    }

    List<Object> result() {
        return result;
    }

    int versions() {
        return ballots.length;
    }

    boolean hasVoted(int version) {
        return ballots[version] != null;
    }

    @SuppressWarnings("unchecked")
    List<Object> ballotOf(int version) {
        return (List<Object>) ballots[version];
    }

    int ballotCount() {
        int count = 0;
        for (Object ballot : ballots) {
            count += ballot == null ? 0 : 1;
        }
        return count;
    }

    /** With a version's ballot added; a version emitting for one input in two ballots (timers) adds them up. */
    PendingVote with(int version, List<Object> values) {
        Object[] more = ballots.clone();
        List<Object> before = ballotOf(version);
        if (before == null) {
            more[version] = values;
        } else {
            List<Object> both = new ArrayList<>(before);
            both.addAll(values);
            more[version] = both;
        }
        return new PendingVote(origin, seq, eventTime, deadlineAt, result, more);
    }

    PendingVote decidedAs(List<Object> values) {
        return new PendingVote(origin, seq, eventTime, deadlineAt, List.copyOf(values), ballots);
    }

    /** The ballots cast by versions {@code versions} accepts, in version order. */
    List<Ballot> ballotsOf(IntPredicate versions) {
        List<Ballot> chosen = new ArrayList<>(ballots.length);
        for (int version = 0; version < ballots.length; version++) {
            List<Object> ballot = ballotOf(version);
            if (ballot != null && versions.test(version)) {
                chosen.add(new Ballot(version, ballot));
            }
        }
        return chosen;
    }

    /** Its fields in the order {@link KeyVotes} lists them. */
    Object field(int index) {
        return switch (index) {
            case 0 -> origin;
            case 1 -> seq;
            case 2 -> eventTime;
            case 3 -> deadlineAt;
            case 4 -> result;
            default -> ballots[index - FIXED_FIELDS];
        };
    }

    /** Fields before the ballots in {@link #field(int)}. */
    static final int FIXED_FIELDS = 5;

    @Override
    public String toString() {
        return "vote of " + origin + ":" + seq + " (deadline " + deadlineAt + ", result " + result + ", ballots "
                + Arrays.toString(ballots) + ")";
    }
}
