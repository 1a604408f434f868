package io.steadfast.runtime.voting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One input's vote as its vote task keeps it in keyed state, from its first ballot until every version's ballot
 * is in (or, for a version that never sends one, a while after the deadline). Immutable: each change is a new one.
 *
 * @param eventTime  the input's event time, which the vote's output carries
 * @param deadlineAt processing time (epoch ms) at which it is decided with the ballots it has
 * @param result     the values it emitted once decided (possibly none); null while undecided
 * @param ballots    each version's values, by version
 */
record PendingVote(long eventTime, long deadlineAt, List<Object> result, Map<Integer, List<Object>> ballots) {

    static PendingVote open(long eventTime, long deadlineAt) {
        return new PendingVote(eventTime, deadlineAt, null, Map.of());
    }

    boolean decided() {
        return result != null;
    }

    boolean hasVoted(int version) {
        return ballots.containsKey(version);
    }

    /** With a version's ballot added; a version emitting for one input in two ballots (timers) adds them up. */
    PendingVote with(int version, List<Object> values) {
        Map<Integer, List<Object>> more = new TreeMap<>(ballots);
        more.merge(version, values, (a, b) -> {
            List<Object> both = new ArrayList<>(a);
            both.addAll(b);
            return both;
        });
        return new PendingVote(eventTime, deadlineAt, result, more);
    }

    PendingVote decidedAs(List<Object> values) {
        return new PendingVote(eventTime, deadlineAt, List.copyOf(values), ballots);
    }

    List<Ballot> ballotsOf(java.util.function.IntPredicate versions) {
        List<Ballot> chosen = new ArrayList<>();
        ballots.forEach((version, values) -> {
            if (versions.test(version)) {
                chosen.add(new Ballot(version, values));
            }
        });
        return chosen;
    }

    /** {@code [eventTime, deadlineAt, result or null, [version, values, version, values, ...]]}. */
    List<Object> toState() {
        List<Object> flat = new ArrayList<>(ballots.size() * 2);
        ballots.forEach((version, values) -> {
            flat.add(version);
            flat.add(values);
        });
        List<Object> state = new ArrayList<>(4);
        state.add(eventTime);
        state.add(deadlineAt);
        state.add(result);
        state.add(flat);
        return state;
    }

    /** Whether a vote as state holds it was decided, without reading the rest. */
    static boolean isDecided(Object state) {
        return ((List<?>) state).get(2) != null;
    }

    @SuppressWarnings("unchecked")
    static PendingVote fromState(Object state) {
        if (state == null) {
            return null;
        }
        List<Object> parts = (List<Object>) state;
        List<Object> flat = (List<Object>) parts.get(3);
        Map<Integer, List<Object>> ballots = new TreeMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            ballots.put((Integer) flat.get(i), (List<Object>) flat.get(i + 1));
        }
        return new PendingVote((Long) parts.get(0), (Long) parts.get(1), (List<Object>) parts.get(2), ballots);
    }
}
