package io.steadfast.runtime.recovery;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Records a task's decisions into its {@link DecisionLog}, cheaply: records taken from one input add to a
 * pending run in plain fields, written to the log only when the input changes, a watermark is applied, a
 * snapshot is taken or a frame is about to be sent (so that every frame leaving the task is covered by the
 * log). Silent while the task replays decisions it made before. Task thread only.
 */
public final class DecisionRecorder {

    private final DecisionLog log;
    private final NavigableMap<Long, Long> offsetAtCheckpoint = new TreeMap<>();
    private int pendingInput = -1;
    private int pendingRecords;
    private boolean replaying;

    public DecisionRecorder(DecisionLog log) {
        this.log = log;
    }

    public void setReplaying(boolean replaying) {
        flush();
        this.replaying = replaying;
    }

    public boolean isReplaying() {
        return replaying;
    }

    /** The task took one sequenced record from {@code input}. */
    public void took(int input) {
        took(input, 1);
    }

    /**
     * The task took {@code records} sequenced records from {@code input}; a source logs the events it emitted
     * as taken from input 0, so that its log states how far it got without a barrier too.
     */
    public void took(int input, int records) {
        if (replaying) {
            return;
        }
        if (input != pendingInput || pendingRecords > Integer.MAX_VALUE - records) {
            flush();
            pendingInput = input;
        }
        pendingRecords += records;
    }

    public void appliedWatermark(int input, long watermark) {
        if (!replaying) {
            flush();
            log.append(new Decision.AppliedWatermark(input, watermark));
        }
    }

    public void sourceBarrier(long checkpointId, long position) {
        if (!replaying) {
            flush();
            log.append(new Decision.SourceBarrier(checkpointId, position));
        }
    }

    /** The task read its processing-time clock at {@code millis} and fired the timers due by then. */
    public void processingTime(long millis) {
        if (!replaying) {
            flush();
            log.append(new Decision.ProcessingTime(millis));
        }
    }

    /** Writes the pending run to the log; called before every frame the task sends. */
    public void flush() {
        if (pendingRecords > 0) {
            log.recordRun(pendingInput, pendingRecords);
        }
        pendingInput = -1;
        pendingRecords = 0;
    }

    /**
     * The log offset a snapshot for {@code checkpointId} restarts from: the end of the log, or while replaying
     * {@code replayOffset}, where the original task's log stood at this snapshot.
     */
    public long markCheckpoint(long checkpointId, long replayOffset) {
        flush();
        long offset = replaying ? replayOffset : log.end();
        offsetAtCheckpoint.put(checkpointId, offset);
        return offset;
    }

    /** Drops what the completed checkpoint's snapshot (or the latest before it) covers. */
    public void checkpointCompleted(long checkpointId) {
        Map.Entry<Long, Long> covered = offsetAtCheckpoint.floorEntry(checkpointId);
        if (covered != null) {
            log.truncateBefore(covered.getValue());
            offsetAtCheckpoint.headMap(covered.getKey(), true).clear();
        }
    }
}
