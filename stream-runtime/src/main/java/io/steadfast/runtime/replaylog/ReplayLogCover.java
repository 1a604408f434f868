package io.steadfast.runtime.replaylog;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Which segments of a channel replay it after a position: taken in firstSeq order, each segment that holds a record
 * the ones before it do not; the first record none of them holds is a gap. Segments may overlap (a restored sender
 * logs the records it regenerates again, perhaps cut at other places): receivers drop records they already have by
 * sequence number, so an overlap costs bytes, never correctness. A gap is an error.
 */
public final class ReplayLogCover {

    private ReplayLogCover() {
    }

    /**
     * The segments that hold every record from {@code after + 1} to the last one stored, in order.
     *
     * @param byFirstSeq   the channel's segments with records after {@code after}, sorted by firstSeq
     * @param truncatedUpTo the position the channel's log was truncated at, 0 if never: records up to it may be gone
     *                     even where no later segment shows it
     * @throws ReplayLogGapException naming the first records that none of the segments holds
     */
    public static <T> List<T> after(ChannelId channel, long after, long truncatedUpTo, List<T> byFirstSeq,
                                    ToLongFunction<T> firstSeq, ToLongFunction<T> lastSeq) {
        List<T> chosen = new ArrayList<>();
        long next = after + 1;
        for (T segment : byFirstSeq) {
            long last = lastSeq.applyAsLong(segment);
            if (last < next) {
                continue;
            }
            long first = firstSeq.applyAsLong(segment);
            if (first > next) {
                throw new ReplayLogGapException(channel, after, next, first - 1);
            }
            chosen.add(segment);
            next = last + 1;
        }
        if (next <= truncatedUpTo) {
            throw new ReplayLogGapException(channel, after, next, truncatedUpTo);
        }
        return chosen;
    }
}
