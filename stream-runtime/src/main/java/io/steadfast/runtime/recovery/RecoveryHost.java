package io.steadfast.runtime.recovery;

import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.StreamTask;
import java.util.List;

/** What {@link InPlaceRecovery} needs of the host it recovers tasks on: its tasks and its data-plane channels. */
public interface RecoveryHost {

    /** The running task of that id on this host, or null. */
    StreamTask task(TaskId task);

    /** The host holds {@code plan} from now on (unless it holds one of its topology already). */
    void holdPlan(ExecutionPlan plan);

    /**
     * Opens an output channel towards {@code endpoint}, numbering frames from {@code nextSeq}, sent as the sending
     * task's incarnation {@code incarnation}.
     */
    FrameSender openOutbound(ChannelId channel, String endpoint, long nextSeq, RecoveryMode mode, int incarnation);

    /** Loads what a channel's sender logged before into the channel's output log, to replay first. */
    void preloadLog(ChannelId channel, List<LogSegment> segments);

    /**
     * Opens an input channel of {@code task}, counting on from {@code position}, refusing frames of senders before
     * {@code senderIncarnation}.
     */
    void openInbound(ChannelId channel, long position, StreamTask task, int incarnation, int senderIncarnation);

    /** {@code task}, as incarnation {@code incarnation}, runs on this host from now on. */
    void add(StreamTask task, int incarnation);

    /** The recovered tasks were started with {@code opened} channels, under {@code placement}. */
    void opened(ExecutionPlan plan, TaskPlacement placement, List<ChannelId> opened);
}
