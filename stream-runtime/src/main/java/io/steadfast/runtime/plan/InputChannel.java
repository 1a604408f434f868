package io.steadfast.runtime.plan;

import java.util.Objects;

/**
 * A channel a task reads from.
 *
 * @param channel the channel
 * @param from the upstream task writing to it
 * @param inputIndex which declared input of the operator the channel belongs to (0 for the first)
 */
public record InputChannel(ChannelId channel, TaskId from, int inputIndex) {

    public InputChannel {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(from, "from");
        if (inputIndex < 0) {
            throw new IllegalArgumentException("inputIndex must be >= 0, was " + inputIndex);
        }
    }
}
