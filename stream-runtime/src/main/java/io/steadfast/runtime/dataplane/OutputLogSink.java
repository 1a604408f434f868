package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;

/**
 * Receives what the output logs ({@link Retention#UNTIL_TRUNCATED}) of a data plane record, to ship it
 * elsewhere (the checkpoint-service). Called on the data plane's IO thread: implementations queue and return at
 * once, they never block or throw.
 */
public interface OutputLogSink {

    /** A sink that ships nothing. */
    OutputLogSink NONE = new OutputLogSink() {
        @Override
        public void logged(LogSegment segment) {
        }

        @Override
        public void truncated(ChannelId channel, long upToSeq) {
        }
    };

    /** Frames were appended to a channel's output log. */
    void logged(LogSegment segment);

    /** A channel's output log no longer needs its records up to {@code upToSeq} (a checkpoint completed). */
    void truncated(ChannelId channel, long upToSeq);
}
