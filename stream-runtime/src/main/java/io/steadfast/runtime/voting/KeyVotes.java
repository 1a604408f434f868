package io.steadfast.runtime.voting;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The votes of one key in a vote task, as keyed state holds them: one value per key, so that a ballot costs one state
 * lookup and one update. It holds
 * <ul>
 *   <li>the key's open votes (undecided, or decided and still waiting for versions that have not sent their ballot)
 *       in the order they were opened: for one origin that is the order of the inputs, since every version answers an
 *       origin's inputs in order, so a vote is always opened after the vote of the input before;</li>
 *   <li>per origin, the highest sequence number decided, which recognises the ballots of votes already forgotten;</li>
 *   <li>the processing-time timer armed for the key, at the earliest deadline of its undecided votes.</li>
 * </ul>
 * Immutable: each change is a new one, so a snapshot may encode it while the task goes on.
 *
 * <p>It presents itself as a flat list, which the value codecs carry like any list (snapshots, state queries):
 * {@code [versions, armed timer or null, origins, (origin, decided through) per origin, (origin, seq, event time,
 * deadline, result, ballot of each version) per vote]}, a result or ballot null until there is one.
 */
final class KeyVotes extends AbstractList<Object> {

    /** {@link #armedTimer()} when no timer is armed. */
    static final long NO_TIMER = Long.MIN_VALUE;
    /** {@link #decidedThrough(long)} of an origin with no decided vote. */
    static final long NONE_DECIDED = Long.MIN_VALUE;
    private static final int HEADER = 3;
    private static final PendingVote[] NO_VOTES = new PendingVote[0];
    private static final long[] NO_ORIGINS = new long[0];

    private final int versions;
    private final long armedTimer;
    /** Per origin, two slots: the origin and the highest sequence number decided there. */
    private final long[] decided;
    private final PendingVote[] votes;

    private KeyVotes(int versions, long armedTimer, long[] decided, PendingVote[] votes) {
        this.versions = versions;
        this.armedTimer = armedTimer;
        this.decided = decided;
        this.votes = votes;
    }

    /**
     * The votes a key's state holds: none for no state, or those of the flat list a snapshot restored.
     *
     * @throws IllegalStateException if the state is not such a list, or holds votes of another number of versions
     */
    static KeyVotes of(Object state, int versions) {
        if (state == null) {
            return new KeyVotes(versions, NO_TIMER, NO_ORIGINS, NO_VOTES);
        }
        KeyVotes votes = state instanceof KeyVotes held ? held : parse(state);
        if (votes.versions != versions) {
            throw new IllegalStateException("A vote task's state holds votes of " + votes.versions
                    + " versions, its operator has " + versions);
        }
        return votes;
    }

    int voteCount() {
        return votes.length;
    }

    PendingVote vote(int index) {
        return votes[index];
    }

    /** The index of the vote on input {@code seq} of {@code origin}, or -1. */
    int indexOf(long origin, long seq) {
        for (int i = 0; i < votes.length; i++) {
            if (votes[i].isFor(origin, seq)) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the oldest undecided vote of {@code origin}, or -1. */
    int oldestUndecided(long origin) {
        for (int i = 0; i < votes.length; i++) {
            if (votes[i].origin == origin && !votes[i].decided()) {
                return i;
            }
        }
        return -1;
    }

    KeyVotes withOpened(PendingVote vote) {
        PendingVote[] more = Arrays.copyOf(votes, votes.length + 1);
        more[votes.length] = vote;
        return new KeyVotes(versions, armedTimer, decided, more);
    }

    KeyVotes withVote(int index, PendingVote vote) {
        PendingVote[] changed = votes.clone();
        changed[index] = vote;
        return new KeyVotes(versions, armedTimer, decided, changed);
    }

    KeyVotes without(int index) {
        PendingVote[] fewer = new PendingVote[votes.length - 1];
        System.arraycopy(votes, 0, fewer, 0, index);
        System.arraycopy(votes, index + 1, fewer, index, votes.length - index - 1);
        return new KeyVotes(versions, armedTimer, decided, fewer);
    }

    /** Without the decided votes that stopped waiting for their missing ballots at {@code now}. */
    KeyVotes withoutExpired(long now, long lateHorizonMs) {
        int kept = 0;
        for (PendingVote vote : votes) {
            kept += vote.decided() && vote.deadlineAt + lateHorizonMs <= now ? 0 : 1;
        }
        if (kept == votes.length) {
            return this;
        }
        PendingVote[] fewer = new PendingVote[kept];
        int i = 0;
        for (PendingVote vote : votes) {
            if (!(vote.decided() && vote.deadlineAt + lateHorizonMs <= now)) {
                fewer[i++] = vote;
            }
        }
        return new KeyVotes(versions, armedTimer, decided, fewer);
    }

    /** The highest sequence number decided for {@code origin}, or {@link #NONE_DECIDED}. */
    long decidedThrough(long origin) {
        for (int i = 0; i < decided.length; i += 2) {
            if (decided[i] == origin) {
                return decided[i + 1];
            }
        }
        return NONE_DECIDED;
    }

    KeyVotes withDecided(long origin, long seq) {
        for (int i = 0; i < decided.length; i += 2) {
            if (decided[i] == origin) {
                if (decided[i + 1] >= seq) {
                    return this;
                }
                long[] changed = decided.clone();
                changed[i + 1] = seq;
                return new KeyVotes(versions, armedTimer, changed, votes);
            }
        }
        long[] more = Arrays.copyOf(decided, decided.length + 2);
        more[decided.length] = origin;
        more[decided.length + 1] = seq;
        return new KeyVotes(versions, armedTimer, more, votes);
    }

    /** The earliest deadline of the undecided votes; {@link Long#MAX_VALUE} if there are none. */
    long earliestDeadline() {
        long earliest = Long.MAX_VALUE;
        for (PendingVote vote : votes) {
            if (!vote.decided()) {
                earliest = Math.min(earliest, vote.deadlineAt);
            }
        }
        return earliest;
    }

    /** The origins of the undecided votes, in the order of their oldest vote. */
    long[] undecidedOrigins() {
        long[] origins = new long[votes.length];
        int count = 0;
        for (PendingVote vote : votes) {
            if (!vote.decided() && !contains(origins, count, vote.origin)) {
                origins[count++] = vote.origin;
            }
        }
        return Arrays.copyOf(origins, count);
    }

    private static boolean contains(long[] values, int count, long value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    long armedTimer() {
        return armedTimer;
    }

    KeyVotes withArmedTimer(long timer) {
        return timer == armedTimer ? this : new KeyVotes(versions, timer, decided, votes);
    }

    private int voteWidth() {
        return PendingVote.FIXED_FIELDS + versions;
    }

    @Override
    public Object get(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException(index);
        }
        if (index < HEADER) {
            return switch (index) {
                case 0 -> (long) versions;
                case 1 -> armedTimer == NO_TIMER ? null : armedTimer;
                default -> (long) decided.length / 2;
            };
        }
        int at = index - HEADER;
        if (at < decided.length) {
            return decided[at];
        }
        at -= decided.length;
        return votes[at / voteWidth()].field(at % voteWidth());
    }

    @Override
    public int size() {
        return HEADER + decided.length + votes.length * voteWidth();
    }

    private static KeyVotes parse(Object state) {
        if (!(state instanceof List<?> flat) || flat.size() < HEADER) {
            throw malformed(state);
        }
        int versions = (int) number(flat, 0);
        long armed = flat.get(1) == null ? NO_TIMER : number(flat, 1);
        int origins = (int) number(flat, 2);
        if (versions < 1 || origins < 0 || HEADER + 2L * origins > flat.size()) {
            throw malformed(state);
        }
        long[] decided = new long[2 * origins];
        for (int i = 0; i < decided.length; i++) {
            decided[i] = number(flat, HEADER + i);
        }
        int width = PendingVote.FIXED_FIELDS + versions;
        int first = HEADER + decided.length;
        if ((flat.size() - first) % width != 0) {
            throw malformed(state);
        }
        PendingVote[] votes = new PendingVote[(flat.size() - first) / width];
        for (int v = 0; v < votes.length; v++) {
            int at = first + v * width;
            List<List<Object>> ballots = new ArrayList<>(versions);
            for (int version = 0; version < versions; version++) {
                ballots.add(listOrNull(flat, at + PendingVote.FIXED_FIELDS + version));
            }
            votes[v] = PendingVote.restored(number(flat, at), number(flat, at + 1), number(flat, at + 2),
                    number(flat, at + 3), listOrNull(flat, at + 4), ballots);
        }
        return new KeyVotes(versions, armed, decided, votes);
    }

    private static long number(List<?> flat, int index) {
        if (!(flat.get(index) instanceof Number number)) {
            throw malformed(flat);
        }
        return number.longValue();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> listOrNull(List<?> flat, int index) {
        Object value = flat.get(index);
        if (value != null && !(value instanceof List<?>)) {
            throw malformed(flat);
        }
        return (List<Object>) value;
    }

    private static IllegalStateException malformed(Object state) {
        return new IllegalStateException("A vote task's keyed state holds " + state + ", which is not the votes of a"
                + " key ([versions, armed timer, origins, (origin, decided through)..., votes...])");
    }
}
