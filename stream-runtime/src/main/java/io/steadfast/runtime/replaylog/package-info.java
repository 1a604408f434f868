/**
 * Replay logs: the output logs of a topology's channels as the hosts ship them to the checkpoint-service and read
 * them back for a recovery. Defined once here because both services speak it: the segment with the checkpoint it
 * was logged under ({@link io.steadfast.runtime.replaylog.ReplayLogSegment}), the binary batch format of the
 * checkpoint-service's replay-log API ({@link io.steadfast.runtime.replaylog.ReplayLogBatchWriter},
 * {@link io.steadfast.runtime.replaylog.ReplayLogBatchReader}) and the rule that makes a range of segments
 * complete ({@link io.steadfast.runtime.replaylog.ReplayLogCover}).
 */
package io.steadfast.runtime.replaylog;
