package io.steadfast.runtime.task;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;

/**
 * A task received a frame it cannot decode. The frame passed the data plane's checksum (or came from a task of the
 * same host, without a wire), so it arrived as its sender encoded it: resending it would not help, and skipping it
 * would lose its records silently. The task fails instead,
 * without acknowledging the frame, and the platform's handling of task failures takes over.
 */
public class UndecodableFrameException extends RuntimeException {

    private final TaskId task;
    private final ChannelId channel;
    private final long firstSeq;
    private final int records;

    /**
     * @param firstSeq the channel's sequence number of the frame's first sequenced record
     * @param records  the sequenced records the frame's header announced
     */
    public UndecodableFrameException(TaskId task, ChannelId channel, long firstSeq, int records, CodecException cause) {
        super("Task " + task + " cannot decode the frame of " + describe(firstSeq, records) + " it received on channel "
                + channel + ": " + cause.getMessage() + ". The frame arrived as its sender encoded it (it passed the "
                + "data plane's checksum, or came from a task of this host), so a resend would carry the same bytes: "
                + "the sender wrote what this task "
                + "cannot read, a bug or a mismatch of Steadfast versions or registered codecs between the two hosts. "
                + "The frame was not acknowledged and the task fails rather than skip its records; check that every "
                + "host runs the same Steadfast version and registers the same codecs", cause);
        this.task = task;
        this.channel = channel;
        this.firstSeq = firstSeq;
        this.records = records;
    }

    private static String describe(long firstSeq, int records) {
        return records > 0 ? "records " + firstSeq + ".." + (firstSeq + records - 1)
                : "no sequenced records (after record " + (firstSeq - 1) + ")";
    }

    public TaskId task() {
        return task;
    }

    public ChannelId channel() {
        return channel;
    }

    /** The channel's sequence number of the frame's first sequenced record. */
    public long firstSeq() {
        return firstSeq;
    }

    /** The sequenced records the frame's header announced. */
    public int records() {
        return records;
    }
}
