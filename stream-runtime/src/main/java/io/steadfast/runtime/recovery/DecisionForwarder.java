package io.steadfast.runtime.recovery;

import io.steadfast.runtime.codec.RecordBatchWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Carries decisions in the frames of one output channel whose receiver runs on another host: the sending
 * task's own, and those of its upstream tasks on the same host (which would be lost with it), each from where
 * this channel last left off. Whoever receives the task's output then holds every decision that output depends
 * on. Frames are written on the task thread; an upstream task recovered onto this host later is added from any
 * thread ({@link #add}) and carried from the channel's next frame on.
 */
public final class DecisionForwarder {

    /** A log to forward: its task's index in the plan, the log, and the offset to start from. */
    public record Origin(int taskIndex, DecisionLog log, long startOffset) {
    }

    // task thread only
    private Origin[] origins;
    private long[] cursors;
    // any thread
    private final Set<Integer> carried = ConcurrentHashMap.newKeySet();
    private final Queue<Origin> added = new ConcurrentLinkedQueue<>();

    public DecisionForwarder(List<Origin> origins) {
        this.origins = origins.toArray(Origin[]::new);
        this.cursors = new long[this.origins.length];
        for (int i = 0; i < this.origins.length; i++) {
            cursors[i] = this.origins[i].startOffset();
            carried.add(this.origins[i].taskIndex());
        }
    }

    /** Whether this channel carries the log of the plan's task {@code taskIndex} (or will from its next frame). */
    public boolean carries(int taskIndex) {
        return carried.contains(taskIndex);
    }

    /**
     * Carries {@code origin}'s log too, from its next frame on, unless it carries that task's already. Any thread.
     */
    public void add(Origin origin) {
        if (carried.add(origin.taskIndex())) {
            added.add(origin);
        }
    }

    /** Adds what each log gained since this channel's last frame. */
    public void appendTo(RecordBatchWriter batch) {
        takeAdded();
        for (int i = 0; i < origins.length; i++) {
            DecisionLog.Slice slice = origins[i].log().readFrom(cursors[i]);
            if (slice.bytes().length > 0 || slice.from() > cursors[i]) {
                batch.addDecisions(origins[i].taskIndex(), slice.base(), slice.from(), slice.bytes());
            }
            cursors[i] = slice.from() + slice.bytes().length;
        }
    }

    private void takeAdded() {
        Origin origin;
        while ((origin = added.poll()) != null) {
            origins = Arrays.copyOf(origins, origins.length + 1);
            cursors = Arrays.copyOf(cursors, cursors.length + 1);
            origins[origins.length - 1] = origin;
            cursors[cursors.length - 1] = origin.startOffset();
        }
    }
}
