package io.steadfast.checkpoint.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchReader;
import io.steadfast.runtime.replaylog.ReplayLogBatchWriter;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** The replay-log API through real HTTP on the embedded store: upload, replay, gaps, truncation, problems, metrics. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "steadfast.checkpoint.replay-logs.max-segment-size=64KB",
        "steadfast.checkpoint.replay-logs.max-batch-size=256KB"})
@Timeout(300)
class ReplayLogApiIT extends ServiceOverHttp {

    @Autowired
    MeterRegistry meters;

    private static ReplayLogSegment segment(String channel, long first, long last, int size) {
        return segment(channel, 0, first, last, size);
    }

    /** A segment that a sender of {@code incarnation} logged. */
    private static ReplayLogSegment segment(String channel, int incarnation, long first, long last, int size) {
        byte[] frames = new byte[size];
        new Random(first * 31 + channel.hashCode()).nextBytes(frames);
        return new ReplayLogSegment(new LogSegment(ChannelId.parse(channel), incarnation, first, last, frames), 4);
    }

    private HttpApi.Reply upload(String topology, ReplayLogSegment... segments) {
        return api.postBytes("/api/v1/replay-logs/" + topology + "/segments",
                ReplayLogBatchWriter.encode(List.of(segments)));
    }

    private static List<ReplayLogSegment> segments(HttpApi.Reply reply) throws IOException {
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/octet-stream");
        return ReplayLogBatchReader.readAll(new ByteArrayInputStream(reply.body()), Integer.MAX_VALUE);
    }

    @Test
    void storesABatchAndReplaysOneChannelInOrderFromTheSegmentHoldingTheNextRecord() throws IOException {
        ReplayLogSegment first = segment("rl-read~0@1", 1, 100, 30_000);
        ReplayLogSegment second = segment("rl-read~0@1", 101, 200, 20_000);
        ReplayLogSegment third = segment("rl-read~0@1", 201, 250, 10);

        HttpApi.Reply stored = upload("rl-read", third, segment("rl-read~1@1", 1, 10, 5), first, second);

        assertThat(stored.status()).as(stored.text()).isEqualTo(201);
        JsonNode body = stored.json();
        assertThat(body.get("topology").asString()).isEqualTo("rl-read");
        assertThat(body.get("segments").asInt()).isEqualTo(4);
        assertThat(body.get("bytes").asLong()).isEqualTo(50_015);
        String channel = "/api/v1/replay-logs/rl-read/channels/rl-read~0@1/segments";
        List<ReplayLogSegment> all = segments(api.get(channel + "?after=0"));
        assertThat(all).extracting(ReplayLogSegment::firstSeq, ReplayLogSegment::lastSeq)
                .containsExactly(tuple(1L, 100L), tuple(101L, 200L), tuple(201L, 250L));
        assertThat(all.get(1).segment().frames()).isEqualTo(second.segment().frames());
        assertThat(all.get(1).checkpoint()).isEqualTo(4);
        assertThat(segments(api.get(channel + "?after=150"))).extracting(ReplayLogSegment::firstSeq)
                .containsExactly(101L, 201L);
        assertThat(segments(api.get(channel + "?after=250"))).isEmpty();
    }

    @Test
    void refusesSegmentsOfASenderSupersededByOneThatReadTheLogForItsRecovery() throws IOException {
        assertThat(upload("rl-fenced", segment("rl-fenced~0", 0, 1, 100, 10)).status()).isEqualTo(201);
        String channel = "/api/v1/replay-logs/rl-fenced/channels/rl-fenced~0/segments";

        assertThat(segments(api.get(channel + "?after=0&incarnation=1"))).as("what the predecessor logged")
                .extracting(ReplayLogSegment::incarnation).containsExactly(0);
        HttpApi.Reply late = upload("rl-fenced", segment("rl-fenced~0", 0, 101, 200, 10));

        assertThat(late.status()).as(late.text()).isEqualTo(409);
        assertThat(late.contentType()).startsWith(PROBLEM);
        JsonNode problem = late.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:steadfast:problem:superseded-incarnation");
        assertThat(problem.get("reason").asString()).isEqualTo("SUPERSEDED_INCARNATION");
        assertThat(problem.get("channel").asString()).isEqualTo("rl-fenced~0");
        assertThat(problem.get("incarnation").asInt()).isZero();
        assertThat(problem.get("minimumIncarnation").asInt()).isEqualTo(1);
        assertThat(problem.get("detail").asString()).contains("newer copy of the sending task took over");
        assertThat(upload("rl-fenced", segment("rl-fenced~0", 1, 101, 200, 10)).status()).isEqualTo(201);
        assertThat(segments(api.get(channel + "?after=0"))).extracting(ReplayLogSegment::incarnation)
                .containsExactly(0, 1);
        assertField(api.get(channel + "?after=0&incarnation=-1"), 400, "incarnation");
    }

    @Test
    void uploadingTheSameBatchAgainStoresEachSegmentOnce() throws IOException {
        ReplayLogSegment first = segment("rl-again~0", 1, 10, 100);
        ReplayLogSegment second = segment("rl-again~0", 11, 20, 100);
        upload("rl-again", first, second);

        HttpApi.Reply again = upload("rl-again", first, second);

        assertThat(again.status()).isEqualTo(201);
        assertThat(again.json().get("replaced").asInt()).isEqualTo(2);
        assertThat(segments(api.get("/api/v1/replay-logs/rl-again/channels/rl-again~0/segments?after=0")))
                .extracting(ReplayLogSegment::firstSeq).containsExactly(1L, 11L);
    }

    @Test
    void aRangeWithMissingRecordsIsAConflictNamingThem() {
        upload("rl-gap", segment("rl-gap~2", 1, 100, 10), segment("rl-gap~2", 151, 200, 10));

        HttpApi.Reply reply = api.get("/api/v1/replay-logs/rl-gap/channels/rl-gap~2/segments?after=20");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.contentType()).startsWith(PROBLEM);
        JsonNode problem = reply.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:steadfast:problem:replay-log-gap");
        assertThat(problem.get("channel").asString()).isEqualTo("rl-gap~2");
        assertThat(problem.get("after").asLong()).isEqualTo(20);
        assertThat(problem.get("missingFrom").asLong()).isEqualTo(101);
        assertThat(problem.get("missingTo").asLong()).isEqualTo(150);
        assertThat(problem.get("detail").asString()).contains("101..150", "globally");
    }

    @Test
    void truncatingAChannelDeletesItsSegmentsUpToTheRecordAndCountsThem() throws IOException {
        upload("rl-trunc", segment("rl-trunc~0", 1, 100, 1000), segment("rl-trunc~0", 101, 200, 2000),
                segment("rl-trunc~1", 1, 100, 4000));
        double deletedBefore = meters.counter("steadfast.checkpoint.replaylog.bytes.deleted", "topology", "rl-trunc")
                .count();

        HttpApi.Reply reply = api.delete("/api/v1/replay-logs/rl-trunc/channels/rl-trunc~0/segments?upTo=100");

        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        assertThat(reply.json().get("channel").asString()).isEqualTo("rl-trunc~0");
        assertThat(reply.json().get("segmentsDeleted").asLong()).isEqualTo(1);
        assertThat(reply.json().get("bytesDeleted").asLong()).isEqualTo(1000);
        assertThat(segments(api.get("/api/v1/replay-logs/rl-trunc/channels/rl-trunc~0/segments?after=100")))
                .extracting(ReplayLogSegment::firstSeq).containsExactly(101L);
        assertThat(api.get("/api/v1/replay-logs/rl-trunc/channels/rl-trunc~0/segments?after=0").status())
                .isEqualTo(409);
        assertThat(segments(api.get("/api/v1/replay-logs/rl-trunc/channels/rl-trunc~1/segments?after=0"))).hasSize(1);
        assertThat(meters.counter("steadfast.checkpoint.replaylog.bytes.deleted", "topology", "rl-trunc").count()
                - deletedBefore).isEqualTo(1000);
    }

    @Test
    void deletingATopologyDropsEveryChannelOfItAndCountsWhatWasStoredAndDeleted() throws IOException {
        upload("rl-gone", segment("rl-gone~0", 1, 10, 100), segment("rl-gone~1", 1, 10, 200));
        upload("rl-kept", segment("rl-kept~0", 1, 10, 300));

        HttpApi.Reply reply = api.delete("/api/v1/replay-logs/rl-gone");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("segmentsDeleted").asLong()).isEqualTo(2);
        assertThat(reply.json().get("bytesDeleted").asLong()).isEqualTo(300);
        assertThat(segments(api.get("/api/v1/replay-logs/rl-gone/channels/rl-gone~0/segments?after=0"))).isEmpty();
        assertThat(segments(api.get("/api/v1/replay-logs/rl-kept/channels/rl-kept~0/segments?after=0"))).hasSize(1);
        assertThat(meters.counter("steadfast.checkpoint.replaylog.segments.stored", "topology", "rl-gone").count())
                .isEqualTo(2);
        assertThat(meters.counter("steadfast.checkpoint.replaylog.bytes.stored", "topology", "rl-gone").count())
                .isEqualTo(300);
        assertThat(meters.counter("steadfast.checkpoint.replaylog.segments.deleted", "topology", "rl-gone").count())
                .isEqualTo(2);
    }

    @Test
    void badIdsAndPositionsAreBadRequestsNamingTheField() {
        assertField(api.get("/api/v1/replay-logs/Bad_Topology/channels/x~0/segments?after=0"), 400, "topology");
        assertField(api.get("/api/v1/replay-logs/rl-bad/channels/other~0/segments?after=0"), 400, "channel");
        assertField(api.get("/api/v1/replay-logs/rl-bad/channels/rl-bad-0/segments?after=0"), 400, "channel");
        HttpApi.Reply negative = api.get("/api/v1/replay-logs/rl-bad/channels/rl-bad~0/segments?after=-1");
        assertField(negative, 400, "after");
        assertThat(negative.json().get("detail").asString()).contains(">= 0");
        HttpApi.Reply missing = api.delete("/api/v1/replay-logs/rl-bad/channels/rl-bad~0/segments");
        assertField(missing, 400, "upTo");
        assertThat(missing.json().get("detail").asString()).contains("?upTo=");
    }

    @Test
    void aBadBatchIsRefusedWholeNamingTheEntryAndField() {
        byte[] good = ReplayLogBatchWriter.encode(List.of(segment("rl-batch~0", 1, 10, 10)));
        byte[] truncated = Arrays.copyOf(good, good.length - 3);

        HttpApi.Reply reply = api.postBytes("/api/v1/replay-logs/rl-batch/segments", truncated);

        assertField(reply, 400, "entries[0].frames");
        assertThat(reply.json().get("entry").asInt()).isZero();
        assertThat(reply.json().get("detail").asString()).contains("0x53464C31");
        HttpApi.Reply foreign = upload("rl-batch", segment("rl-batch~0", 1, 10, 10), segment("other~0", 1, 10, 10));
        assertField(foreign, 400, "entries[1].channel");
        assertThat(foreign.json().get("detail").asString()).contains("/api/v1/replay-logs/other/segments");
        HttpApi.Reply json = api.send("POST", "/api/v1/replay-logs/rl-batch/segments",
                java.net.http.HttpRequest.BodyPublishers.ofString("{}"), "application/octet-stream");
        assertField(json, 400, "magic");
        assertThat(api.get("/api/v1/replay-logs/rl-batch/channels/rl-batch~0/segments?after=0").body())
                .as("nothing of the refused batches stored").hasSize(ReplayLogBatchWriter.HEADER_BYTES);
        assertThat(api.send("POST", "/api/v1/replay-logs/rl-batch/segments",
                java.net.http.HttpRequest.BodyPublishers.ofString("{}"), "application/json").status())
                .isEqualTo(415);
    }

    @Test
    void segmentsAndBatchesAboveTheLimitsAreTooLargeNamingTheKey() {
        HttpApi.Reply segment = upload("rl-big", segment("rl-big~0", 1, 10, 64 * 1024 + 1));
        assertField(segment, 413, "entries[0].length");
        assertThat(segment.json().get("detail").asString())
                .contains("steadfast.checkpoint.replay-logs.max-segment-size");

        ReplayLogSegment[] many = new ReplayLogSegment[5];
        for (int i = 0; i < many.length; i++) {
            many[i] = segment("rl-big~0", i * 10L + 1, i * 10L + 10, 60 * 1024);
        }
        HttpApi.Reply batch = upload("rl-big", many);
        assertField(batch, 413, "entries[4]");
        assertThat(batch.json().get("detail").asString()).contains("steadfast.checkpoint.replay-logs.max-batch-size",
                "steadfast.host.replay-log.batch-size");
    }

    private static void assertField(HttpApi.Reply reply, int status, String field) {
        assertThat(reply.status()).as(new String(reply.body(), StandardCharsets.UTF_8)).isEqualTo(status);
        assertThat(reply.contentType()).startsWith(PROBLEM);
        assertThat(reply.json().get("field").asString()).isEqualTo(field);
    }
}
