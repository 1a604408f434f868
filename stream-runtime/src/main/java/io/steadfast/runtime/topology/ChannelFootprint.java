package io.steadfast.runtime.topology;

import java.util.Locale;

/**
 * What channels take of the heap of the hosts that run them before any record flows, as the topology and host
 * limits reckon it.
 *
 * <p>Measured on idle channels (a generator feeding a latest-value sink, 256 and 4,096 channels, on one host and
 * across two): 34.9 KiB per channel with both ends on one host, 36.3 KiB across hosts. Almost all of it is the
 * sending task's frame buffer ({@code ChannelWriter}: {@code TaskSettings.frameTargetBytes}, 32 KiB, plus 1 KiB
 * of slack, allocated when the task is created); the receiving end, the data plane's channel state and an empty
 * output log add 1-3 KiB. Under load more comes on top: frames in flight up to the receiver's credit window (up to
 * 1 MiB per channel on hosts, {@code steadfast.host.data.credit-bytes}) and, for local recovery, output logs of up
 * to 16 MiB per channel in memory before they spill to disk.
 */
public final class ChannelFootprint {

    /** The heap one idle channel takes, rounded up from the 34.9-36.3 KiB measured. */
    public static final int BYTES_PER_CHANNEL = 36 * 1024;

    private static final long KIB = 1024;

    private ChannelFootprint() {
    }

    /** The heap {@code channels} idle channels take. */
    public static long bytes(long channels) {
        try {
            return Math.multiplyExact(channels, BYTES_PER_CHANNEL);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The heap {@code channels} idle channels take, for a message: {@code "about 36 GiB"}. */
    public static String describe(long channels) {
        long bytes = bytes(channels);
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes / (double) KIB;
        int unit = 0;
        while (value >= KIB && unit < units.length - 1) {
            value /= KIB;
            unit++;
        }
        return "about " + String.format(Locale.ROOT, value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit];
    }
}
