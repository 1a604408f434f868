package io.steadfast.router.model;

import io.steadfast.runtime.task.TaskSettings;

/**
 * The mean time a record waits in its output frame before the frame is sent, from the channel's rate and the tasks'
 * batching settings ({@link TaskSettings}). A frame goes out at the end of the linger period its first record fell
 * in (periods aligned on the clock), or, once it holds {@code shortLingerRecords}, a short linger after its first
 * record. A slow channel's records arrive at random points of a period and wait half of it on average; a fast one
 * fills a frame of {@code shortLingerRecords} in {@code shortLingerRecords / rate} and its records wait half that,
 * but no less than half the short linger.
 */
final class ChannelBatching {

    private final TaskSettings settings;

    ChannelBatching(TaskSettings settings) {
        this.settings = settings;
    }

    /** The mean wait in seconds of a record on a channel carrying {@code recordsPerSecond}. */
    double meanLingerSeconds(double recordsPerSecond) {
        double linger = ModelProperties.seconds(settings.linger());
        if (recordsPerSecond <= 0) {
            return linger / 2;
        }
        double fill = settings.shortLingerRecords() / recordsPerSecond;
        double shortLinger = ModelProperties.seconds(settings.shortLinger());
        return Math.min(linger, Math.max(shortLinger, fill)) / 2;
    }
}
