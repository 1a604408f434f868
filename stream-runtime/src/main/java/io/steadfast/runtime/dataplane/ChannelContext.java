package io.steadfast.runtime.dataplane;

/**
 * What every channel of one data plane works with: its IO loop, frame codec, metrics, output logs and configuration.
 */
record ChannelContext(IoLoop loop, FrameCodec codec, DataPlaneMetrics metrics, OutputLogs outputLogs,
                      DataPlaneConfig config) {
}
