package io.steadfast.runtime.voting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * One input's vote as its vote task keeps it in keyed state, from its first ballot until every version's ballot
 * is in (or, for a version that never sends one, a while after the deadline). Immutable: each change is a new one.
 * Held as one flat list, {@code [eventTime, deadlineAt, result, ballot of version 0, ballot of version 1, ...]} (a
 * ballot null until cast, the result null until decided), so that reading it from state allocates nothing.
 */
final class PendingVote {

    private static final int EVENT_TIME = 0;
    private static final int DEADLINE_AT = 1;
    private static final int RESULT = 2;
    private static final int FIRST_BALLOT = 3;

    /** The fields, as state holds them: never changed, copied on write. */
    private final List<?> fields;

    private PendingVote(List<?> fields) {
        this.fields = fields;
    }

    static PendingVote open(long eventTime, long deadlineAt, int versions) {
        Object[] fields = new Object[FIRST_BALLOT + versions];
        fields[EVENT_TIME] = eventTime;
        fields[DEADLINE_AT] = deadlineAt;
        return new PendingVote(Arrays.asList(fields));
    }

    /** The input's event time, which the vote's output carries. */
    long eventTime() {
        return (Long) fields.get(EVENT_TIME);
    }

    /** Processing time (epoch ms) at which it is decided with the ballots it has. */
    long deadlineAt() {
        return deadlineAt(fields);
    }

    boolean decided() {
        return fields.get(RESULT) != null;
    }

    /** The values it emitted once decided (possibly none); null while undecided. */
    @SuppressWarnings("unchecked")
    List<Object> result() {
        return (List<Object>) fields.get(RESULT);
    }

    boolean hasVoted(int version) {
        return fields.get(FIRST_BALLOT + version) != null;
    }

    @SuppressWarnings("unchecked")
    List<Object> ballotOf(int version) {
        return (List<Object>) fields.get(FIRST_BALLOT + version);
    }

    int ballotCount() {
        int count = 0;
        for (int i = FIRST_BALLOT; i < fields.size(); i++) {
            count += fields.get(i) == null ? 0 : 1;
        }
        return count;
    }

    /** With a version's ballot added; a version emitting for one input in two ballots (timers) adds them up. */
    PendingVote with(int version, List<Object> values) {
        Object[] more = fields.toArray();
        List<Object> before = ballotOf(version);
        if (before == null) {
            more[FIRST_BALLOT + version] = values;
        } else {
            List<Object> both = new ArrayList<>(before);
            both.addAll(values);
            more[FIRST_BALLOT + version] = both;
        }
        return new PendingVote(Arrays.asList(more));
    }

    PendingVote decidedAs(List<Object> values) {
        Object[] decided = fields.toArray();
        decided[RESULT] = List.copyOf(values);
        return new PendingVote(Arrays.asList(decided));
    }

    /** The ballots cast by versions {@code versions} accepts, in version order. */
    List<Ballot> ballotsOf(IntPredicate versions) {
        List<Ballot> chosen = new ArrayList<>(fields.size() - FIRST_BALLOT);
        for (int version = 0; version < fields.size() - FIRST_BALLOT; version++) {
            List<Object> ballot = ballotOf(version);
            if (ballot != null && versions.test(version)) {
                chosen.add(new Ballot(version, ballot));
            }
        }
        return chosen;
    }

    /** The vote as keyed state holds it (see the class comment); never changed after. */
    List<?> toState() {
        return fields;
    }

    /** Whether a vote as state holds it was decided, without reading the rest. */
    static boolean isDecided(Object state) {
        return ((List<?>) state).get(RESULT) != null;
    }

    /** The deadline of a vote as state holds it, without reading the rest. */
    static long deadlineAt(Object state) {
        return (Long) ((List<?>) state).get(DEADLINE_AT);
    }

    static PendingVote fromState(Object state) {
        return state == null ? null : new PendingVote((List<?>) state);
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
