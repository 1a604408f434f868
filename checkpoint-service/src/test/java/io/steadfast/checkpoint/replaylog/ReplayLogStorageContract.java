package io.steadfast.checkpoint.replaylog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.mongodb.client.MongoDatabase;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchReader;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import io.steadfast.runtime.topology.TopologyId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every store the service can run on must do with replay logs. Run as a nested class of each storage test
 * (the embedded server over TCP, a real MongoDB), which provides the database; each test gets a database of its own.
 */
@Timeout(120)
public abstract class ReplayLogStorageContract {

    private static final TopologyId TOPOLOGY = new TopologyId("word-count");
    private static final ChannelId CHANNEL = new ChannelId(TOPOLOGY, 3, 1);
    private static final ChannelId OTHER_CHANNEL = new ChannelId(TOPOLOGY, 4, 1);

    private MongoDatabase database;
    private MongoReplayLogStore store;
    private int syncs;

    /** A client's database on the store under test, reached over TCP. */
    protected abstract MongoDatabase database(String name);

    @BeforeEach
    void openStore() {
        database = database("replay-" + UUID.randomUUID().toString().substring(0, 8));
        store = new MongoReplayLogStore(database, () -> syncs++,
                Clock.fixed(Instant.parse("2026-01-01T10:00:00Z"), ZoneOffset.UTC));
    }

    private static ReplayLogSegment segment(ChannelId channel, long first, long last, int size) {
        return segment(channel, 0, first, last, size);
    }

    /** A segment that a sender of {@code incarnation} logged. */
    private static ReplayLogSegment segment(ChannelId channel, int incarnation, long first, long last, int size) {
        byte[] frames = new byte[size];
        new Random(channel.index() * 1_000_003L + first).nextBytes(frames);
        return new ReplayLogSegment(new LogSegment(channel, incarnation, first, last, frames), first > 100 ? 7 : -1);
    }

    /** Reads the range back through its batch encoding, as the API sends it. */
    private static List<ReplayLogSegment> read(ReplayLogRange range) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        range.transferTo(out);
        assertThat((long) out.size()).isEqualTo(range.encodedSize());
        return ReplayLogBatchReader.readAll(new ByteArrayInputStream(out.toByteArray()), Integer.MAX_VALUE);
    }

    private static void assertSame(List<ReplayLogSegment> actual, ReplayLogSegment... expected) {
        assertThat(actual).extracting(ReplayLogSegment::firstSeq)
                .containsExactly(List.of(expected).stream().map(ReplayLogSegment::firstSeq).toArray(Long[]::new));
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual.get(i).channel()).isEqualTo(expected[i].channel());
            assertThat(actual.get(i).lastSeq()).isEqualTo(expected[i].lastSeq());
            assertThat(actual.get(i).checkpoint()).isEqualTo(expected[i].checkpoint());
            assertThat(actual.get(i).segment().frames()).isEqualTo(expected[i].segment().frames());
        }
    }

    @Test
    void storesSegmentsDurablyAndReplaysAChannelInSeqOrderFromTheSegmentHoldingTheNextRecord() throws IOException {
        ReplayLogSegment first = segment(CHANNEL, 1, 100, 1000);
        ReplayLogSegment second = segment(CHANNEL, 101, 200, 2000);
        ReplayLogSegment third = segment(CHANNEL, 201, 201, 0);
        int syncsBefore = syncs;

        StoredSegments stored = store.store(TOPOLOGY, List.of(third, segment(OTHER_CHANNEL, 1, 50, 10), first,
                second));

        assertThat(stored).isEqualTo(new StoredSegments(TOPOLOGY, 4, 3010, 0, 0));
        assertThat(syncs).isGreaterThan(syncsBefore);
        assertSame(read(store.after(CHANNEL, 0)), first, second, third);
        assertSame(read(store.after(CHANNEL, 150)), second, third);
        assertThat(store.after(CHANNEL, 150).segments()).extracting(StoredSegment::firstSeq, StoredSegment::lastSeq,
                        StoredSegment::checkpoint, StoredSegment::sizeBytes)
                .containsExactly(tuple(101L, 200L, 7L, 2000), tuple(201L, 201L, 7L, 0));
        assertThat(read(store.after(CHANNEL, 201))).isEmpty();
    }

    @Test
    void storingASegmentAgainReplacesItSoEachIsStoredOnce() throws IOException {
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 100, 10), segment(CHANNEL, 101, 200, 10)));
        ReplayLogSegment again = new ReplayLogSegment(new LogSegment(CHANNEL, 0, 101, 200, new byte[] {1, 2, 3}), 9);

        StoredSegments stored = store.store(TOPOLOGY, List.of(again, again));

        assertThat(stored.segments()).isEqualTo(1);
        assertThat(stored.replaced()).isEqualTo(1);
        assertThat(database.getCollection(MongoReplayLogStore.SEGMENTS).countDocuments()).isEqualTo(2);
        assertThat(read(store.after(CHANNEL, 100)).get(0).segment().frames()).containsExactly(1, 2, 3);
        assertThat(database.getCollection(MongoReplayLogStore.SEGMENTS).listIndexes().into(new ArrayList<>()))
                .anySatisfy(index -> {
                    assertThat(index.get("key", Document.class).keySet())
                            .containsExactly("topology", "channel", "firstSeq");
                    assertThat(index.getBoolean("unique")).isTrue();
                });
    }

    @Test
    void aRangeWithMissingRecordsIsAGapNamingThem() {
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 100, 10), segment(CHANNEL, 201, 300, 10)));

        assertThatThrownBy(() -> store.after(CHANNEL, 50)).isInstanceOfSatisfying(ReplayLogGapException.class, gap -> {
            assertThat(gap.channel()).isEqualTo(CHANNEL);
            assertThat(gap.missingFrom()).isEqualTo(101);
            assertThat(gap.missingTo()).isEqualTo(200);
        });
        assertThat(store.after(CHANNEL, 200).segments()).hasSize(1);
        assertThat(store.after(OTHER_CHANNEL, 0).segments()).as("a channel with nothing stored").isEmpty();
    }

    @Test
    void overlappingSegmentsOfARelogReplayWithoutGapAndThoseAddingNothingAreLeftOut() throws IOException {
        ReplayLogSegment first = segment(CHANNEL, 1, 100, 10);
        ReplayLogSegment relogged = segment(CHANNEL, 51, 150, 10);
        store.store(TOPOLOGY, List.of(first, segment(CHANNEL, 20, 30, 10), relogged));

        assertSame(read(store.after(CHANNEL, 0)), first, relogged);
    }

    @Test
    void truncationDeletesTheSegmentsEndingAtOrBeforeItAndLaterReadsBelowItAreGaps() throws IOException {
        ReplayLogSegment straddling = segment(CHANNEL, 101, 200, 20);
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 100, 10), straddling, segment(CHANNEL, 201, 300, 30),
                segment(OTHER_CHANNEL, 1, 100, 40)));
        int syncsBefore = syncs;

        DeletedSegments deleted = store.truncate(CHANNEL, 150);

        assertThat(deleted).isEqualTo(new DeletedSegments(1, 10));
        assertThat(syncs).isGreaterThan(syncsBefore);
        assertThat(read(store.after(CHANNEL, 150))).extracting(ReplayLogSegment::firstSeq).containsExactly(101L, 201L);
        assertThat(store.after(OTHER_CHANNEL, 0).segments()).hasSize(1);
        assertThatThrownBy(() -> store.after(CHANNEL, 0)).isInstanceOfSatisfying(ReplayLogGapException.class,
                gap -> assertThat(gap.missingTo()).isEqualTo(100));

        assertThat(store.truncate(CHANNEL, 300)).isEqualTo(new DeletedSegments(2, 50));
        assertThatThrownBy(() -> store.after(CHANNEL, 250)).isInstanceOfSatisfying(ReplayLogGapException.class,
                gap -> {
                    assertThat(gap.missingFrom()).isEqualTo(251);
                    assertThat(gap.missingTo()).isEqualTo(300);
                });
        assertThat(store.after(CHANNEL, 300).segments()).isEmpty();
        assertThat(store.truncate(CHANNEL, 120)).isEqualTo(new DeletedSegments(0, 0));
        assertThat(store.after(CHANNEL, 300).segments()).as("an older truncation does not lower the point").isEmpty();
    }

    @Test
    void segmentsArrivingAfterATruncationPastThemAreSkipped() {
        store.truncate(CHANNEL, 200);

        StoredSegments stored = store.store(TOPOLOGY, List.of(segment(CHANNEL, 101, 200, 10),
                segment(CHANNEL, 151, 250, 20)));

        assertThat(stored.segments()).isEqualTo(1);
        assertThat(stored.bytes()).isEqualTo(20);
        assertThat(stored.skipped()).isEqualTo(1);
        assertThat(store.after(CHANNEL, 200).segments()).extracting(StoredSegment::firstSeq).containsExactly(151L);
    }

    @Test
    void deletesEveryChannelAndTruncationPointOfOneTopologyOnly() {
        ChannelId elsewhere = new ChannelId(new TopologyId("other"), 3, 1);
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 10, 5), segment(OTHER_CHANNEL, 1, 10, 6)));
        store.store(elsewhere.topology(), List.of(segment(elsewhere, 1, 10, 7)));
        store.truncate(CHANNEL, 5);

        assertThat(store.deleteTopology(TOPOLOGY)).isEqualTo(new DeletedSegments(2, 11));

        assertThat(store.after(CHANNEL, 0).segments()).as("the truncation point went too").isEmpty();
        assertThat(store.after(OTHER_CHANNEL, 0).segments()).isEmpty();
        assertThat(store.after(elsewhere, 0).segments()).hasSize(1);
    }

    @Test
    void storesTheSendersIncarnationWithEachSegmentAndRefusesAnOlderOneThanTheChannelHasSeen() throws IOException {
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 1, 100, 10)));
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 2, 101, 200, 10)));

        assertThatThrownBy(() -> store.store(TOPOLOGY, List.of(segment(OTHER_CHANNEL, 0, 1, 10, 5),
                segment(CHANNEL, 1, 201, 300, 10))))
                .isInstanceOfSatisfying(ReplayLogSupersededException.class, e -> {
                    assertThat(e.channel()).isEqualTo(CHANNEL);
                    assertThat(e.incarnation()).isEqualTo(1);
                    assertThat(e.minimum()).isEqualTo(2);
                });

        assertThat(store.after(CHANNEL, 200).segments()).isEmpty();
        assertThat(store.after(OTHER_CHANNEL, 0).segments()).as("nothing of the refused batch").isEmpty();
        assertThat(read(store.after(CHANNEL, 0))).extracting(ReplayLogSegment::incarnation).containsExactly(1, 2);
        assertThat(store.store(TOPOLOGY, List.of(segment(CHANNEL, 2, 201, 300, 10))).segments()).isEqualTo(1);
    }

    @Test
    void aBatchCarryingTwoIncarnationsOfOneSenderIsRefusedForTheOlder() {
        assertThatThrownBy(() -> store.store(TOPOLOGY, List.of(segment(CHANNEL, 3, 1, 100, 10),
                segment(CHANNEL, 2, 101, 200, 10))))
                .isInstanceOfSatisfying(ReplayLogSupersededException.class,
                        e -> assertThat(e.incarnation()).isEqualTo(2));

        assertThat(store.after(CHANNEL, 0).segments()).isEmpty();
    }

    @Test
    void aRecoveringSendersFenceKeepsItsPredecessorsSegmentsAndRefusesItsLaterOnes() throws IOException {
        store.store(TOPOLOGY, List.of(segment(CHANNEL, 0, 1, 100, 10), segment(OTHER_CHANNEL, 0, 1, 100, 10)));
        int syncsBefore = syncs;

        store.fence(CHANNEL, 1);

        assertThat(syncs).isGreaterThan(syncsBefore);
        assertThat(read(store.after(CHANNEL, 0))).extracting(ReplayLogSegment::incarnation).containsExactly(0);
        assertThatThrownBy(() -> store.store(TOPOLOGY, List.of(segment(CHANNEL, 0, 101, 200, 10))))
                .isInstanceOf(ReplayLogSupersededException.class);
        store.fence(CHANNEL, 0);
        store.truncate(CHANNEL, 50);
        assertThatThrownBy(() -> store.store(TOPOLOGY, List.of(segment(CHANNEL, 0, 101, 200, 10))))
                .as("neither an older fence nor a truncation lowers it")
                .isInstanceOf(ReplayLogSupersededException.class);
        assertThat(store.store(TOPOLOGY, List.of(segment(OTHER_CHANNEL, 0, 101, 200, 10))).segments())
                .as("another channel").isEqualTo(1);
        assertThat(store.store(TOPOLOGY, List.of(segment(CHANNEL, 1, 101, 200, 10))).segments()).isEqualTo(1);
    }

    @Test
    void refusesASegmentOfAnotherTopology() {
        ChannelId elsewhere = new ChannelId(new TopologyId("other"), 0);

        assertThatThrownBy(() -> store.store(TOPOLOGY, List.of(segment(elsewhere, 1, 1, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other");
    }

    @Test
    void replaysMoreSegmentsThanOneReplyMayCarry() throws IOException {
        List<ReplayLogSegment> segments = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            segments.add(segment(CHANNEL, i * 1000L + 1, (i + 1) * 1000L, 1024 * 1024 + i));
        }
        store.store(TOPOLOGY, segments.subList(0, 10));
        store.store(TOPOLOGY, segments.subList(10, 20));

        assertSame(read(store.after(CHANNEL, 0)), segments.toArray(ReplayLogSegment[]::new));
    }
}
