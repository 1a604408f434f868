package io.steadfast.host.replaylog;

import io.steadfast.host.config.ServiceProblem;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchReader;
import io.steadfast.runtime.replaylog.ReplayLogBatchWriter;
import io.steadfast.runtime.replaylog.ReplayLogCover;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * {@link ReplayLogStore} over the checkpoint-service's REST API ({@code /api/v1/replay-logs/...}), segments in the
 * binary batch format of {@link ReplayLogBatchWriter} both ways. A replayed range is checked here as well: segments
 * of another channel, out of order or leaving a gap are refused rather than handed to a recovery. A 409 answer to an
 * upload with the reason {@code SUPERSEDED_INCARNATION} becomes a {@link ReplayLogSupersededException} naming the
 * channel and incarnations. Thread-safe; timeouts come from the client it is given.
 */
public final class HttpReplayLogStore implements ReplayLogStore {

    /** The largest segment read back: the checkpoint-service stores none above 15 MiB. */
    private static final int MAX_SEGMENT_BYTES = 16 * 1024 * 1024;
    private static final String CHECK = "; check that it runs and steadfast.host.checkpoint-url is right";

    private final RestClient http;
    private final URI baseUrl;

    public HttpReplayLogStore(RestClient http, URI baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    @Override
    public void store(TopologyId topology, List<ReplayLogSegment> segments) {
        String what = segments.size() + " replay-log segments of topology " + topology;
        try {
            http.post().uri(UriComponentsBuilder.fromUri(baseUrl).path("/api/v1/replay-logs/{topology}/segments")
                            .buildAndExpand(topology.value()).encode().toUri())
                    .contentType(MediaType.APPLICATION_OCTET_STREAM).body(ReplayLogBatchWriter.encode(segments))
                    .retrieve().toBodilessEntity();
        } catch (HttpClientErrorException e) {
            throw superseded(e).orElseThrow(() -> rejected(what, e));
        } catch (RestClientException e) {
            throw new ReplayLogStoreException("Checkpoint-service at " + baseUrl + " did not store " + what + ": "
                    + e.getMessage() + CHECK, e);
        }
    }

    /** The refusal of segments of a superseded sender, if the answer is one. */
    private static Optional<ReplayLogSupersededException> superseded(HttpClientErrorException e) {
        return ServiceProblem.of(e).filter(problem -> problem.isSuperseded()
                        && problem.get("channel") instanceof String)
                .map(problem -> new ReplayLogSupersededException(ChannelId.parse((String) problem.get("channel")),
                        (int) problem.number("incarnation", 0), (int) problem.number("minimumIncarnation", 0)));
    }

    @Override
    public void truncate(ChannelId channel, long upToSeq) {
        String what = "the replay log of channel " + channel + " up to record " + upToSeq;
        try {
            http.delete().uri(channelUri(channel, "upTo", upToSeq)).retrieve().toBodilessEntity();
        } catch (HttpClientErrorException e) {
            throw rejected("truncating " + what, e);
        } catch (RestClientException e) {
            throw new ReplayLogStoreException("Checkpoint-service at " + baseUrl + " did not truncate " + what + ": "
                    + e.getMessage() + CHECK, e);
        }
    }

    @Override
    public List<LogSegment> segmentsAfter(ChannelId channel, long afterSeq, int incarnation) {
        URI uri = UriComponentsBuilder.fromUri(channelUri(channel, "after", afterSeq))
                .queryParam("incarnation", incarnation).build(true).toUri();
        List<ReplayLogSegment> read;
        try {
            read = http.get().uri(uri).accept(MediaType.APPLICATION_OCTET_STREAM, MediaType.APPLICATION_PROBLEM_JSON)
                    .exchange((request, response) -> {
                        if (response.getStatusCode().value() == HttpStatus.CONFLICT.value()) {
                            Map<?, ?> problem = response.bodyTo(Map.class);
                            throw gap(channel, afterSeq, new ServiceProblem(problem == null ? Map.of() : problem));
                        }
                        if (response.getStatusCode().isError()) {
                            throw new ReplayLogStoreException("Checkpoint-service at " + baseUrl + " answered "
                                    + response.getStatusCode() + " to GET " + uri + ": "
                                    + new String(response.getBody().readAllBytes()), null);
                        }
                        return ReplayLogBatchReader.readAll(response.getBody(), MAX_SEGMENT_BYTES);
                    });
        } catch (RestClientException e) {
            throw new ReplayLogStoreException("Checkpoint-service at " + baseUrl + " did not return the replay log of"
                    + " channel " + channel + " after record " + afterSeq + ": " + e.getMessage() + CHECK, e);
        }
        for (ReplayLogSegment segment : read) {
            if (!segment.channel().equals(channel)) {
                throw new ReplayLogStoreException("Checkpoint-service at " + baseUrl + " answered a segment of channel "
                        + segment.channel() + " when asked for channel " + channel, null);
            }
        }
        return ReplayLogCover.after(channel, afterSeq, 0, read, ReplayLogSegment::firstSeq, ReplayLogSegment::lastSeq)
                .stream().map(ReplayLogSegment::segment).toList();
    }

    private static ReplayLogGapException gap(ChannelId channel, long afterSeq, ServiceProblem problem) {
        return new ReplayLogGapException(channel, afterSeq, problem.number("missingFrom", afterSeq + 1),
                problem.number("missingTo", afterSeq + 1));
    }

    private ReplayLogRejectedException rejected(String what, HttpClientErrorException e) {
        return new ReplayLogRejectedException("Checkpoint-service at " + baseUrl + " refused " + what + " with "
                + e.getStatusCode() + ": " + e.getResponseBodyAsString(), e);
    }

    private URI channelUri(ChannelId channel, String parameter, long seq) {
        return UriComponentsBuilder.fromUri(baseUrl).path("/api/v1/replay-logs/{topology}/channels/{channel}/segments")
                .queryParam(parameter, seq).buildAndExpand(channel.topology().value(), channel.toString()).encode()
                .toUri();
    }
}
