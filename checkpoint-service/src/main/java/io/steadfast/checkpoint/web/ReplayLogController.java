package io.steadfast.checkpoint.web;

import io.steadfast.checkpoint.config.CheckpointProperties;
import io.steadfast.checkpoint.replaylog.DeletedSegments;
import io.steadfast.checkpoint.replaylog.ReplayLogMeters;
import io.steadfast.checkpoint.replaylog.ReplayLogRange;
import io.steadfast.checkpoint.replaylog.ReplayLogStore;
import io.steadfast.checkpoint.replaylog.StoredSegments;
import io.steadfast.protocol.store.ReplayLogDeleted;
import io.steadfast.protocol.store.ReplayLogTruncated;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchReader;
import io.steadfast.runtime.replaylog.ReplayLogBatchWriter;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replay logs: the hosts upload segments of their channels' output logs in batches, a recovery reads a channel's
 * segments after a position, completed checkpoints truncate them. Segments travel in the binary format of
 * {@link ReplayLogBatchWriter} both ways, each with the incarnation of the sending task that logged it. Channels go in
 * paths in their text form {@code topology~index@epoch}. A channel's log refuses segments of an incarnation of its
 * sender older than one it has seen: in an upload, or named by a recovery's read ({@code ?incarnation=}).
 */
@RestController
@Tag(name = CheckpointApiDocs.REPLAY_LOGS)
@RequestMapping("/api/v1/replay-logs/{topology}")
class ReplayLogController {

    private static final String AFTER_EXAMPLE = "give the last record the caller has, e.g. ?after=1200"
            + " (0 for the whole log)";
    private static final String UP_TO_EXAMPLE = "give the last record to drop, e.g. ?upTo=1200 (segments whose"
            + " lastSeq is at or below it are deleted)";

    private final ReplayLogStore store;
    private final ReplayLogMeters meters;
    private final int maxSegmentBytes;
    private final long maxBatchBytes;

    ReplayLogController(ReplayLogStore store, ReplayLogMeters meters, CheckpointProperties properties) {
        this.store = store;
        this.meters = meters;
        this.maxSegmentBytes = Math.toIntExact(properties.replayLogs().maxSegmentSize().toBytes());
        this.maxBatchBytes = properties.replayLogs().maxBatchSize().toBytes();
    }

    /**
     * Segments of the topology's channels; all are checked before any is stored, and a segment of a superseded
     * incarnation of its sender fails the upload with a 409 problem.
     */
    @PostMapping(path = "/segments", consumes = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    StoredSegments store(@PathVariable String topology, InputStream body) throws IOException {
        TopologyId topologyId = RequestIds.topology(topology);
        ReplayLogBatchReader reader = new ReplayLogBatchReader(body, maxSegmentBytes);
        List<ReplayLogSegment> segments = new ArrayList<>();
        long bytes = 0;
        for (ReplayLogSegment segment = reader.next(); segment != null; segment = reader.next()) {
            String field = "entries[" + reader.entry() + "]";
            if (!segment.channel().topology().equals(topologyId)) {
                throw new InvalidRequestException(field + ".channel", segment.channel().toString(), "Entry "
                        + reader.entry() + " is a segment of channel " + segment.channel() + " of topology '"
                        + segment.channel().topology() + "'; upload it to /api/v1/replay-logs/"
                        + segment.channel().topology() + "/segments");
            }
            bytes += segment.sizeBytes();
            if (bytes > maxBatchBytes) {
                throw new ContentTooLargeException(field, "The batch carries more than " + maxBatchBytes
                        + " bytes of frames by entry " + reader.entry() + "; upload smaller batches (the host's"
                        + " steadfast.host.replay-log.batch-size) or raise"
                        + " steadfast.checkpoint.replay-logs.max-batch-size");
            }
            segments.add(segment);
        }
        StoredSegments stored = store.store(topologyId, segments);
        meters.stored(stored);
        return stored;
    }

    /**
     * The segments that replay the channel after {@code after}, or a 409 problem naming the records missing. A
     * recovering sender names its {@code incarnation}: from then on the log refuses segments of older ones.
     */
    @GetMapping("/channels/{channel}/segments")
    void segments(@PathVariable String topology, @PathVariable String channel,
                  @RequestParam(required = false) @Nullable String after,
                  @RequestParam(required = false) @Nullable String incarnation, HttpServletResponse response)
            throws IOException {
        ChannelId channelId = RequestIds.channel("channel", channel, RequestIds.topology(topology));
        long afterSeq = RequestIds.sequence("after", after, AFTER_EXAMPLE);
        if (incarnation != null) {
            store.fence(channelId, RequestIds.incarnation("incarnation", incarnation));
        }
        ReplayLogRange range = store.after(channelId, afterSeq);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
        response.setContentLengthLong(range.encodedSize());
        range.transferTo(response.getOutputStream());
    }

    /** Truncation at a completed checkpoint: drops the segments whose lastSeq is at or below {@code upTo}. */
    @DeleteMapping("/channels/{channel}/segments")
    ReplayLogTruncated truncate(@PathVariable String topology, @PathVariable String channel,
                              @RequestParam(required = false) @Nullable String upTo) {
        TopologyId topologyId = RequestIds.topology(topology);
        ChannelId channelId = RequestIds.channel("channel", channel, topologyId);
        DeletedSegments deleted = store.truncate(channelId, RequestIds.sequence("upTo", upTo, UP_TO_EXAMPLE));
        meters.deleted(topologyId, deleted);
        return new ReplayLogTruncated(topologyId, channelId, deleted.segments(), deleted.bytes());
    }

    /** Deletes every segment of the topology (when it is cancelled). */
    @DeleteMapping
    @Operation(operationId = "deleteReplayLog")
    ReplayLogDeleted delete(@PathVariable String topology) {
        TopologyId topologyId = RequestIds.topology(topology);
        DeletedSegments deleted = store.deleteTopology(topologyId);
        meters.deleted(topologyId, deleted);
        return new ReplayLogDeleted(topologyId, deleted.segments(), deleted.bytes());
    }
}
