package io.steadfast.host.replaylog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.checkpoint.CheckpointServiceApplication;
import io.steadfast.checkpoint.replaylog.StoredSegment;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The shipper against a real checkpoint-service running in this JVM (its embedded store over TCP, its REST API over
 * HTTP), read back with {@link HttpReplayLogStore} as a recovery would: what is shipped arrives complete and in
 * order, truncations delete and never overtake, an outage of the service delays but loses nothing, and an overflow
 * or a refused segment marks the channel incomplete and shows as a gap.
 */
@Timeout(300)
class ReplayLogShipperIT {

    private static final TopologyId WORDS = new TopologyId("words");
    private static final TopologyId CLICKS = new TopologyId("clicks");
    /** Small so that one test can send a segment the service refuses. */
    private static final int MAX_SEGMENT = 64 * 1024;
    /** Above the service's limit, so that the service's refusal can be tested. */
    private static final int HOST_MAX_SEGMENT = 4 * MAX_SEGMENT;

    @TempDir
    static Path dataDir;
    private static ConfigurableApplicationContext service;
    private static int port;

    private final List<ReplayLogShipper> shippers = new ArrayList<>();

    @BeforeAll
    static void startCheckpointService() {
        service = startService(0);
        port = ((WebServerApplicationContext) service).getWebServer().getPort();
    }

    @AfterAll
    static void stopCheckpointService() {
        if (service != null) {
            service.close();
        }
    }

    @AfterEach
    void closeShippers() throws InterruptedException {
        for (ReplayLogShipper shipper : shippers) {
            shipper.close();
        }
    }

    private static ConfigurableApplicationContext startService(int onPort) {
        return new SpringApplicationBuilder(CheckpointServiceApplication.class).run("--server.port=" + onPort,
                "--spring.main.banner-mode=off", "--spring.application.name=checkpoint-service",
                "--steadfast.checkpoint.embedded.data-dir=" + dataDir,
                "--steadfast.checkpoint.replay-logs.max-segment-size=" + MAX_SEGMENT + "B");
    }

    private static HttpReplayLogStore store() {
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory();
        requests.setReadTimeout(Duration.ofSeconds(10));
        return new HttpReplayLogStore(RestClient.builder().requestFactory(requests).build(),
                URI.create("http://127.0.0.1:" + port));
    }

    private ReplayLogShipper shipper(long queueCapacity, long batchSize) {
        return shipper(store(), queueCapacity, batchSize);
    }

    private ReplayLogShipper shipper(ReplayLogStore store, long queueCapacity, long batchSize) {
        ReplayLogShipper shipper = new ReplayLogShipper(store, new ReplayLogShipper.Settings(queueCapacity,
                batchSize, HOST_MAX_SEGMENT, Duration.ofMillis(100), Duration.ofMillis(20), Duration.ofMillis(300),
                Duration.ofSeconds(2)));
        shippers.add(shipper);
        return shipper;
    }

    /** Records {@code (n-1)*10+1 .. n*10} of the channel, {@code size} bytes of frames. */
    private static LogSegment segment(ChannelId channel, int n, int size) {
        return segment(channel, 0, n, size);
    }

    /** As {@link #segment(ChannelId, int, int)}, logged by a sender of {@code incarnation}. */
    private static LogSegment segment(ChannelId channel, int incarnation, int n, int size) {
        byte[] frames = new byte[size];
        new Random(channel.hashCode() * 31L + n).nextBytes(frames);
        return new LogSegment(channel, incarnation, (n - 1) * 10L + 1, n * 10L, frames);
    }

    private static void assertSameSegments(List<LogSegment> actual, List<LogSegment> expected) {
        assertThat(actual).extracting(LogSegment::firstSeq)
                .containsExactlyElementsOf(expected.stream().map(LogSegment::firstSeq).toList());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).channel()).isEqualTo(expected.get(i).channel());
            assertThat(actual.get(i).lastSeq()).isEqualTo(expected.get(i).lastSeq());
            assertThat(actual.get(i).frames()).as("frames of segment %d", i).isEqualTo(expected.get(i).frames());
        }
    }

    @Test
    void shipsSegmentsThatArriveCompleteAndInOrderInBatches() {
        RecordingReplayLogStore recording = new RecordingReplayLogStore(store());
        ReplayLogShipper shipper = shipper(recording, 64L * 1024 * 1024, 256 * 1024);
        shipper.start();
        List<ChannelId> channels = List.of(new ChannelId(WORDS, 0, 2), new ChannelId(WORDS, 1, 2),
                new ChannelId(CLICKS, 0));
        List<List<LogSegment>> logged = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Random sizes = new Random(11);
        for (int n = 1; n <= 100; n++) {
            if (n == 51) {
                shipper.checkpointCompleted(WORDS, 6);
            }
            for (int c = 0; c < channels.size(); c++) {
                LogSegment segment = segment(channels.get(c), n, 1 + sizes.nextInt(20_000));
                shipper.logged(segment);
                logged.get(c).add(segment);
            }
        }

        await().pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(60))
                .until(() -> shipper.shippedSegments() == 300);
        HttpReplayLogStore store = store();
        for (int c = 0; c < channels.size(); c++) {
            assertSameSegments(store.segmentsAfter(channels.get(c), 0, 0), logged.get(c));
        }
        assertSameSegments(store.segmentsAfter(channels.get(0), 495, 0), logged.get(0).subList(49, 100));
        assertThat(shipper.queuedBytes()).isZero();
        assertThat(shipper.droppedSegments()).isZero();
        assertThat(shipper.completeAfter(channels.get(0), 0)).isTrue();
        assertThat(recording.uploads).as("uploads in batches, not one per segment").hasSizeBetween(2, 150);
        assertThat(recording.uploads.stream().mapToInt(Integer::intValue).sum()).isEqualTo(300);
        List<StoredSegment> stored = service.getBean(io.steadfast.checkpoint.replaylog.ReplayLogStore.class)
                .after(channels.get(0), 0).segments();
        assertThat(stored.get(49).checkpoint()).as("logged before checkpoint 6 completed").isEqualTo(-1);
        assertThat(stored.get(50).checkpoint()).isEqualTo(6);
    }

    @Test
    void truncationsDeleteStoredSegmentsCoalescedAndNeverBeforeTheSegmentsQueuedAheadOfThem() {
        RecordingReplayLogStore recording = new RecordingReplayLogStore(store());
        ReplayLogShipper running = shipper(recording, 1024 * 1024, 64 * 1024);
        running.start();
        ChannelId channel = new ChannelId(WORDS, 7, 3);
        HttpReplayLogStore store = store();
        for (int n = 1; n <= 5; n++) {
            running.logged(segment(channel, n, 100));
        }
        await().pollDelay(Duration.ZERO).until(() -> running.shippedSegments() == 5);

        running.truncated(channel, 20);
        await().pollDelay(Duration.ZERO).untilAsserted(() -> assertThatThrownBy(
                () -> store.segmentsAfter(channel, 0, 0))
                .isInstanceOfSatisfying(ReplayLogGapException.class, gap -> assertThat(gap.missingTo()).isEqualTo(20)));
        assertThat(store.segmentsAfter(channel, 20, 0)).extracting(LogSegment::firstSeq).containsExactly(21L, 31L, 41L);

        // not started yet, so that all of this is queued before the thread takes any of it
        ReplayLogShipper queued = shipper(recording, 1024 * 1024, 64 * 1024);
        for (int n = 6; n <= 10; n++) {
            queued.logged(segment(channel, n, 100));
        }
        queued.truncated(channel, 60);
        queued.truncated(channel, 70);
        queued.start();

        await().pollDelay(Duration.ZERO).untilAsserted(() -> assertThatThrownBy(
                () -> store.segmentsAfter(channel, 0, 0))
                .isInstanceOfSatisfying(ReplayLogGapException.class, gap -> {
                    assertThat(gap.missingFrom()).isEqualTo(1);
                    assertThat(gap.missingTo()).as("no segment up to 70 is left stored").isEqualTo(70);
                }));
        assertThat(store.segmentsAfter(channel, 70, 0)).extracting(LogSegment::firstSeq).containsExactly(71L, 81L, 91L);
        assertThat(recording.truncations).as("the truncations to 60 and 70 coalesced into one")
                .containsExactly(Map.entry(channel, 20L), Map.entry(channel, 70L));
        assertThat(queued.shippedSegments()).as("segments 6 and 7 were truncated before they were shipped")
                .isEqualTo(3);
    }

    @Test
    void anOutageOfTheCheckpointServiceDelaysShippingButLosesNothing() {
        ReplayLogShipper shipper = shipper(8L * 1024 * 1024, 64 * 1024);
        shipper.start();
        ChannelId channel = new ChannelId(CLICKS, 4, 1);
        List<LogSegment> logged = new ArrayList<>();
        service.close();
        try {
            for (int n = 1; n <= 50; n++) {
                LogSegment segment = segment(channel, n, 5_000);
                shipper.logged(segment);
                logged.add(segment);
            }
            await().pollDelay(Duration.ZERO).until(() -> shipper.failedRequests() >= 3);
            assertThat(shipper.shippedSegments()).isZero();
            assertThat(shipper.queuedBytes()).isEqualTo(50 * 5_000);
        } finally {
            service = startService(port);
        }

        await().pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(60)).until(() -> shipper.shippedSegments() == 50);
        assertSameSegments(store().segmentsAfter(channel, 0, 0), logged);
        assertThat(shipper.droppedSegments()).isZero();
        assertThat(shipper.queuedBytes()).isZero();
        assertThat(shipper.completeAfter(channel, 0)).isTrue();
    }

    @Test
    void anOverflowDropsSegmentsMarksTheChannelIncompleteAndShowsAsAGap() {
        ReplayLogShipper shipper = shipper(60 * 1024, 16 * 1024);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        shipper.bindTo(meters);
        ChannelId channel = new ChannelId(WORDS, 9, 1);
        for (int n = 1; n <= 10; n++) {
            shipper.logged(segment(channel, n, 10 * 1024)); // not started: the first six fill the queue
        }

        assertThat(shipper.droppedSegments()).isEqualTo(4);
        assertThat(meters.get("steadfast.host.replaylog.segments.dropped").functionCounter().count()).isEqualTo(4);
        assertThat(meters.get("steadfast.host.replaylog.queued").gauge().value()).isEqualTo(60 * 1024);
        assertThat(shipper.incompleteFrom(channel)).hasValue(61);
        assertThat(shipper.completeAfter(channel, 0)).isFalse();
        assertThat(shipper.completeAfter(channel, 100)).isTrue();

        shipper.start();
        await().pollDelay(Duration.ZERO).until(() -> shipper.shippedSegments() == 6);
        assertThat(shipper.queuedBytes()).isZero();
        shipper.logged(segment(channel, 11, 1024));
        shipper.logged(segment(channel, 12, 1024));
        await().pollDelay(Duration.ZERO).until(() -> shipper.shippedSegments() == 8);
        assertThat(meters.get("steadfast.host.replaylog.segments.shipped").functionCounter().count()).isEqualTo(8);
        assertThatThrownBy(() -> store().segmentsAfter(channel, 0, 0))
                .isInstanceOfSatisfying(ReplayLogGapException.class, gap -> {
                    assertThat(gap.channel()).isEqualTo(channel);
                    assertThat(gap.missingFrom()).isEqualTo(61);
                    assertThat(gap.missingTo()).isEqualTo(100);
                    assertThat(gap.getMessage()).contains("globally");
                });
        assertThat(store().segmentsAfter(channel, 100, 0)).extracting(LogSegment::firstSeq).containsExactly(101L, 111L);

        shipper.truncated(channel, 100);
        assertThat(shipper.completeAfter(channel, 100)).isTrue();
        assertThat(shipper.incompleteFrom(channel)).isEmpty();
    }

    @Test
    void aSegmentTheServiceRefusesIsDroppedAndShippingGoesOn() {
        RecordingReplayLogStore recording = new RecordingReplayLogStore(store());
        ReplayLogShipper shipper = shipper(recording, 1024 * 1024, 16 * 1024);
        shipper.start();
        ChannelId channel = new ChannelId(CLICKS, 2);

        shipper.logged(segment(channel, 1, 100));
        shipper.logged(segment(channel, 2, MAX_SEGMENT + 1));
        shipper.logged(segment(channel, 3, 100));
        shipper.logged(segment(channel, 4, HOST_MAX_SEGMENT + 1));
        shipper.logged(segment(channel, 5, 100));

        await().pollDelay(Duration.ZERO).until(() -> shipper.shippedSegments() + shipper.droppedSegments() == 5);
        assertThat(shipper.droppedSegments()).isEqualTo(2);
        assertThat(recording.uploads.stream().mapToInt(Integer::intValue).sum())
                .as("segment 4, above the host's own limit, is never sent").isEqualTo(4);
        assertThat(shipper.incompleteFrom(channel)).hasValue(11);
        assertThat(shipper.completeAfter(channel, 30)).isFalse();
        assertThat(shipper.completeAfter(channel, 40)).isTrue();
        assertThat(store().segmentsAfter(channel, 40, 0)).extracting(LogSegment::firstSeq).containsExactly(41L);
        assertThatThrownBy(() -> store().segmentsAfter(channel, 20, 0)).isInstanceOfSatisfying(
                ReplayLogGapException.class, gap -> assertThat(gap.missingFrom()).isEqualTo(31));
    }

    @Test
    void segmentsOfASenderWhoseSuccessorReadTheLogAreDroppedWithoutRetryAndTheRestShips() {
        RecordingReplayLogStore recording = new RecordingReplayLogStore(store());
        ReplayLogShipper frozen = shipper(recording, 1024 * 1024, 16 * 1024);
        frozen.start();
        ChannelId fenced = new ChannelId(WORDS, 12, 1);
        ChannelId other = new ChannelId(WORDS, 13, 1);
        frozen.logged(segment(fenced, 0, 1, 100));
        await().pollDelay(Duration.ZERO).until(() -> frozen.shippedSegments() == 1);
        assertThat(store().segmentsAfter(fenced, 0, 1)).as("what the successor, incarnation 1, replays")
                .extracting(LogSegment::firstSeq).containsExactly(1L);

        frozen.logged(segment(fenced, 0, 2, 100));
        frozen.logged(segment(other, 0, 1, 100));
        await().pollDelay(Duration.ZERO).until(() -> frozen.shippedSegments() + frozen.droppedSegments() == 3);
        int uploads = recording.uploads.size();
        frozen.logged(segment(fenced, 0, 3, 100));

        assertThat(frozen.droppedSegments()).isEqualTo(2);
        assertThat(recording.uploads).as("a later segment of the superseded sender is not sent").hasSize(uploads);
        assertThat(frozen.failedRequests()).as("nothing retried").isZero();
        assertThat(store().segmentsAfter(other, 0, 0)).extracting(LogSegment::firstSeq).containsExactly(1L);
        assertThat(store().segmentsAfter(fenced, 0, 0)).extracting(LogSegment::firstSeq).containsExactly(1L);
        frozen.logged(segment(fenced, 1, 2, 100));
        await().pollDelay(Duration.ZERO).until(() -> frozen.shippedSegments() == 3);
        assertThat(store().segmentsAfter(fenced, 0, 1)).extracting(LogSegment::incarnation).containsExactly(0, 1);
    }
}
