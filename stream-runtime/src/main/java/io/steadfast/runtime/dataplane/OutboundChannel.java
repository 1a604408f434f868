package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.List;

/**
 * The sending end of one channel, obtained from {@link DataPlane#openOutbound}.
 *
 * <p><b>Threading:</b> {@link #send}, {@link #hasCredit}, {@link #redirect}, {@link #nextSeq} and
 * {@link #preloadLog} are called by the producing task's thread only (one producer per channel); preloadLog before
 * the first send. {@link #truncateLog} may be called from any thread (it only hands the truncation to the IO
 * thread). {@link #acknowledgedSeq}, {@link #retainedFrames}, {@link #retainedBytes} and {@link #spilledBytes} may
 * be read from any thread. The {@link #onCreditAvailable} callback runs on the data plane's IO thread and must not
 * block. Spill files are written and read on the IO thread.
 *
 * <p><b>Memory:</b> every sent frame is retained until the receiver reports it consumed, so the producer must
 * check {@link #hasCredit()} before each {@link #send}. Sends beyond the credit window are accepted (and counted
 * in {@link DataPlaneMetrics#framesSentBeyondCredit()}), but then nothing bounds the retained memory. An output
 * log ({@link Retention#UNTIL_TRUNCATED}) keeps consumed frames too, up to
 * {@link OutputLogConfig#memoryBytes()} in memory; older ones move to spill files under
 * {@link OutputLogConfig#spillDirectory()} and are read back when a replay needs them.
 */
public interface OutboundChannel {

    /**
     * Sends one frame of {@code eventCount} events, numbered {@link #nextSeq()} .. nextSeq + eventCount - 1.
     * Ownership of {@code payload} passes to the data plane: it is sent without copying and may be sent again
     * after a reconnect, so the caller must never modify or reuse it.
     *
     * <p>A frame of no events (eventCount 0) carries only unsequenced content, such as a watermark that a later
     * frame repeats: it takes no credit and is sent at most once, not retained: if the receiver is not in sync
     * at that moment it is dropped.
     *
     * @throws IllegalArgumentException if the payload exceeds {@link DataPlaneConfig#maxFrameBytes()} or
     *                                  eventCount &lt; 0
     * @throws IllegalStateException    if the channel or its data plane is closed
     */
    void send(byte[] payload, int eventCount);

    /** True while the frames in flight (sent, not yet reported consumed) are fewer than the receiver's window. */
    boolean hasCredit();

    /**
     * Registers the callback run on the IO thread whenever credit becomes available after {@link #hasCredit()}
     * returned false; typically it wakes the producing task's mailbox. Replaces an earlier callback.
     */
    void onCreditAvailable(Runnable wakeUp);

    /** The sequence number the next event sent will get. */
    long nextSeq();

    /** The last event sequence number the receiver reported as consumed (0 before any report). */
    long acknowledgedSeq();

    /**
     * The receiver moved to {@code newPeerEndpoint}: the channel synchronises with it and resends every retained
     * frame after the position the new receiver reports, as fast as the new receiver's credit allows.
     */
    void redirect(String newPeerEndpoint);

    /**
     * With {@link Retention#UNTIL_TRUNCATED}: frames whose events all lie at or before {@code upToSeq} are no
     * longer needed for a replay and are dropped once consumed. Ignored with {@link Retention#UNTIL_CONSUMED}.
     */
    void truncateLog(long upToSeq);

    /**
     * Loads the output log this channel's sender had shipped before it was lost (see
     * {@link DataPlane#start(DataPlaneConfig, OutputLogSink)}), so that receivers restored at an older position
     * are replayed to at once, before the restored producer has regenerated anything. Call before the first
     * {@link #send}; may be called again with the segments that follow. {@link #nextSeq()} is unchanged: the
     * restored producer re-executes from its checkpoint and sends the same events again. Its frames that end at
     * or before the preloaded log's last seq are then dropped (not sent, not logged, taking no credit); a frame
     * that reaches beyond it is sent and logged whole, and receivers skip the events they have. The preloaded
     * frames are not shipped again.
     *
     * @param segments segments of this channel, in order, covering every seq from {@link #nextSeq()} (or the end
     *                 of an earlier preload) on; frames that end before it are passed over
     * @throws IllegalArgumentException     if a segment belongs to another channel or the segments leave a gap
     * @throws MalformedLogSegmentException if a segment cannot be decoded
     * @throws IllegalStateException        after the first send, on a closed channel, or without
     *                                      {@link Retention#UNTIL_TRUNCATED}
     */
    void preloadLog(List<LogSegment> segments);

    /** Frames retained for resend or replay, and their payload bytes (in memory or spilled); any thread. */
    int retainedFrames();

    long retainedBytes();

    /**
     * Of {@link #retainedBytes()}, the payload bytes moved to spill files because the output log exceeded
     * {@link OutputLogConfig#memoryBytes()}; any thread.
     */
    long spilledBytes();

    ChannelId id();
}
