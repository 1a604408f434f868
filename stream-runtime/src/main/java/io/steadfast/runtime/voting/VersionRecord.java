package io.steadfast.runtime.voting;

import java.util.ArrayList;
import java.util.List;

/**
 * What a vote task knows of one version: its counts, whether it is excluded, and its recent outcomes, measured with
 * a sliding-window counter (the previous full window, weighted by how much of it the window still covers, plus the
 * current one) so that the record stays a few numbers whatever the window. Immutable: the vote task replaces it, so
 * an asynchronous snapshot never sees it change.
 *
 * @param agreed        ballots that agreed with the vote's result
 * @param outvoted      ballots that did not
 * @param late          ballots that arrived after their vote's deadline, and were dropped
 * @param excludedSince processing time (epoch ms) it was excluded at, or -1 while it takes part
 * @param streak        while excluded, the votes in a row it has passed in shadow
 * @param current       outcomes in the current window
 * @param currentBad    of them, outvoted or late ones
 * @param previousBad   outvoted or late outcomes in the previous full window, or -1 before one completed
 */
public record VersionRecord(long agreed, long outvoted, long late, long excludedSince, long streak, long current,
                            long currentBad, long previousBad) {

    /** The name of the vote task's task state that holds the records of its versions, in version order. */
    public static final String TASK_STATE = "versions";

    static final VersionRecord NEW = new VersionRecord(0, 0, 0, -1, 0, 0, 0, -1);

    /** How many numbers a record is made of ({@link #toState()}). */
    static final int FIELDS = 8;

    /**
     * The records in a value of the task state {@value #TASK_STATE} (none for null), in version order: the value
     * itself, or its JSON form (a list of {@link #toState()} lists) as a host answers a query.
     */
    public static List<VersionRecord> listOf(Object taskStateValue) {
        if (taskStateValue instanceof VersionRecordList list) {
            return list.records();
        }
        List<VersionRecord> records = new ArrayList<>();
        if (taskStateValue instanceof List<?> list) {
            for (Object one : list) {
                records.add(fromState((List<?>) one));
            }
        }
        return records;
    }

    public boolean excluded() {
        return excludedSince >= 0;
    }

    /** Counts one ballot and adds its outcome to the window. */
    VersionRecord counted(boolean agreeing, boolean lateBallot, int window) {
        VersionRecord counted = new VersionRecord(agreed + (agreeing && !lateBallot ? 1 : 0),
                outvoted + (!agreeing && !lateBallot ? 1 : 0), late + (lateBallot ? 1 : 0), excludedSince,
                excludedSince < 0 ? 0 : agreeing && !lateBallot ? streak + 1 : 0, current, currentBad, previousBad);
        return counted.withOutcome(agreeing && !lateBallot, window);
    }

    /** Adds an outcome to the window without counting a ballot: a version that missed a deadline. */
    VersionRecord missed(int window) {
        return new VersionRecord(agreed, outvoted, late, excludedSince, 0, current, currentBad, previousBad)
                .withOutcome(false, window);
    }

    private VersionRecord withOutcome(boolean good, int window) {
        long bad = currentBad + (good ? 0 : 1);
        if (current + 1 >= window) {
            return new VersionRecord(agreed, outvoted, late, excludedSince, streak, 0, 0, bad);
        }
        return new VersionRecord(agreed, outvoted, late, excludedSince, streak, current + 1, bad, previousBad);
    }

    /** The share of outvoted or late outcomes over about the last {@code window} votes; NaN before a full window. */
    double badShare(int window) {
        if (previousBad < 0) {
            return Double.NaN;
        }
        double previousCovered = (double) (window - current) / window;
        return (previousBad * previousCovered + currentBad) / window;
    }

    /** Its weight in a weighted vote: 1 less its recent share of outvoted or late outcomes (so far, before a window). */
    public double weight(int window) {
        double share = badShare(window);
        if (Double.isNaN(share)) {
            share = current == 0 ? 0 : (double) currentBad / current;
        }
        return Math.max(0, 1 - share);
    }

    VersionRecord excludedAt(long millis) {
        return new VersionRecord(agreed, outvoted, late, millis, 0, current, currentBad, previousBad);
    }

    VersionRecord readmitted() {
        return new VersionRecord(agreed, outvoted, late, -1, 0, 0, 0, -1);
    }

    /** The record as task state holds it. */
    List<Object> toState() {
        return List.of(agreed, outvoted, late, excludedSince, streak, current, currentBad, previousBad);
    }

    static VersionRecord fromState(List<?> state) {
        return new VersionRecord(number(state, 0), number(state, 1), number(state, 2), number(state, 3),
                number(state, 4), number(state, 5), number(state, 6), number(state, 7));
    }

    /** A field as a long: JSON readers may hand small numbers back as ints. */
    private static long number(List<?> state, int index) {
        return ((Number) state.get(index)).longValue();
    }
}
