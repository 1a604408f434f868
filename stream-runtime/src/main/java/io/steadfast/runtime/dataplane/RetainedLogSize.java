package io.steadfast.runtime.dataplane;

/**
 * The size of one outbound channel's retained frames as published to any reader, and its share of the data plane's
 * gauges. The IO thread publishes; any thread reads.
 */
final class RetainedLogSize {

    private final DataPlaneMetrics metrics;
    // also the last values added to the data plane's gauges
    private volatile int frames;
    private volatile long bytes;
    private volatile long spilledBytes;
    private volatile int maxFrames;

    RetainedLogSize(DataPlaneMetrics metrics) {
        this.metrics = metrics;
    }

    /** Publishes the log's size now and adds the change to the data plane's gauges. IO thread only. */
    void publish(FrameLog log) {
        int frameCount = log.size();
        long byteCount = log.bytes();
        long spilled = log.spilledBytes();
        metrics.retainedFrames.addAndGet(frameCount - frames);
        metrics.retainedBytes.addAndGet(byteCount - bytes);
        if (spilled != spilledBytes) { // rarely: spare the shared gauge a write on every frame
            metrics.spilledBytes.addAndGet(spilled - spilledBytes);
            spilledBytes = spilled;
        }
        frames = frameCount;
        bytes = byteCount;
        if (frameCount > maxFrames) {
            maxFrames = frameCount;
        }
    }

    int frames() {
        return frames;
    }

    long bytes() {
        return bytes;
    }

    long spilledBytes() {
        return spilledBytes;
    }

    /** The most frames the channel ever retained at once. */
    int maxFrames() {
        return maxFrames;
    }
}
