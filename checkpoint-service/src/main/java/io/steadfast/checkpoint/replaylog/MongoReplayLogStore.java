package io.steadfast.checkpoint.replaylog;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gt;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lte;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import io.steadfast.checkpoint.store.StoreDurability;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogBatchWriter;
import io.steadfast.runtime.replaylog.ReplayLogCover;
import io.steadfast.runtime.replaylog.ReplayLogGapException;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Binary;
import org.bson.types.ObjectId;

/**
 * Replay logs in two collections: {@code replay_log_segments} holds one document per segment, unique on
 * (topology, channel, firstSeq), with the frames as one binary field and the sender's incarnation;
 * {@code replay_log_channels} holds each channel's truncation point, so that a range reaching below it is reported as
 * a gap even when no segment is left to show one, and late uploads below it are skipped, and the oldest incarnation of
 * its sender whose segments it takes ({@code minIncarnation}).
 *
 * <p>An upload is checked against the incarnations before its segments are written, in two operations: a fence that
 * falls between them (a recovering sender reading the log at that moment) does not stop that upload.
 */
public class MongoReplayLogStore implements ReplayLogStore {

    static final String SEGMENTS = "replay_log_segments";
    static final String CHANNELS = "replay_log_channels";
    /** Bytes fetched per round trip when reading: the embedded server ignores the driver's 16 MiB batch limit. */
    private static final long READ_BYTES = 16L * 1024 * 1024;
    private static final int DUPLICATE_KEY_RETRIES = 3;

    private final MongoCollection<Document> segments;
    private final MongoCollection<Document> channels;
    private final StoreDurability durability;
    private final Clock clock;

    public MongoReplayLogStore(MongoDatabase database, StoreDurability durability, Clock clock) {
        this.segments = database.getCollection(SEGMENTS);
        this.channels = database.getCollection(CHANNELS);
        this.durability = durability;
        this.clock = clock;
        segments.createIndex(Indexes.ascending("topology", "channel", "firstSeq"), new IndexOptions().unique(true));
        channels.createIndex(Indexes.ascending("topology", "channel"), new IndexOptions().unique(true));
    }

    @Override
    public StoredSegments store(TopologyId topology, List<ReplayLogSegment> batch) {
        Map<String, ReplayLogSegment> byKey = new LinkedHashMap<>();
        for (ReplayLogSegment segment : batch) {
            if (!segment.channel().topology().equals(topology)) {
                throw new IllegalArgumentException("Channel " + segment.channel() + " belongs to topology '"
                        + segment.channel().topology() + "', not '" + topology + "'");
            }
            byKey.put(segment.channel() + " " + segment.firstSeq(), segment); // the last upload of a key wins
        }
        Map<String, ChannelState> states = channelStates(topology, byKey.values().stream()
                .map(segment -> segment.channel().toString()).distinct().toList());
        Map<ChannelId, Integer> newest = newestIncarnations(byKey.values(), states);
        List<ReplaceOneModel<Document>> writes = new ArrayList<>();
        long bytes = 0;
        Date storedAt = Date.from(clock.instant());
        for (ReplayLogSegment segment : byKey.values()) {
            if (segment.lastSeq() <= state(states, segment.channel()).truncatedUpTo()) {
                continue;
            }
            writes.add(new ReplaceOneModel<>(key(segment.channel(), segment.firstSeq()), document(segment, storedAt),
                    new ReplaceOptions().upsert(true)));
            bytes += segment.sizeBytes();
        }
        newest.forEach((channel, incarnation) -> {
            if (incarnation > state(states, channel).minIncarnation()) {
                raiseMinimum(channel, incarnation);
            }
        });
        int skipped = byKey.size() - writes.size();
        if (writes.isEmpty()) {
            durability.sync();
            return new StoredSegments(topology, 0, 0, 0, skipped);
        }
        BulkWriteResult result = write(writes);
        durability.sync();
        return new StoredSegments(topology, writes.size(), bytes, writes.size() - result.getUpserts().size(),
                skipped);
    }

    /**
     * The newest incarnation of each channel's sender among what its log has seen and the segments uploaded.
     *
     * @throws ReplayLogSupersededException naming the first segment of an older one
     */
    private static Map<ChannelId, Integer> newestIncarnations(Collection<ReplayLogSegment> uploaded,
                                                              Map<String, ChannelState> states) {
        Map<ChannelId, Integer> newest = new HashMap<>();
        uploaded.forEach(segment -> newest.merge(segment.channel(),
                Math.max(segment.incarnation(), state(states, segment.channel()).minIncarnation()), Math::max));
        for (ReplayLogSegment segment : uploaded) {
            int minimum = newest.get(segment.channel());
            if (segment.incarnation() < minimum) {
                throw new ReplayLogSupersededException(segment.channel(), segment.incarnation(), minimum);
            }
        }
        return newest;
    }

    @Override
    public void fence(ChannelId channel, int incarnation) {
        raiseMinimum(channel, incarnation);
        durability.sync();
    }

    private void raiseMinimum(ChannelId channel, int incarnation) {
        channels.updateOne(channelKey(channel), Updates.max("minIncarnation", incarnation),
                new UpdateOptions().upsert(true));
    }

    /** Two concurrent first uploads of one segment can collide on the unique index; a replace is idempotent. */
    private BulkWriteResult write(List<ReplaceOneModel<Document>> writes) {
        for (int attempt = 1; ; attempt++) {
            try {
                return segments.bulkWrite(writes, new BulkWriteOptions().ordered(false));
            } catch (MongoBulkWriteException e) {
                boolean duplicates = e.getWriteErrors().stream()
                        .allMatch(error -> ErrorCategory.fromErrorCode(error.getCode()) == ErrorCategory.DUPLICATE_KEY);
                if (!duplicates || attempt >= DUPLICATE_KEY_RETRIES) {
                    throw e;
                }
            }
        }
    }

    @Override
    public ReplayLogRange after(ChannelId channel, long after) {
        List<Located> stored = new ArrayList<>();
        for (Document document : segments.find(and(channelFilter(channel), gt("lastSeq", after)))
                .projection(Projections.exclude("frames")).sort(Sorts.ascending("firstSeq"))) {
            stored.add(new Located(document.getObjectId("_id"), info(channel, document)));
        }
        long truncatedUpTo = state(channelStates(channel.topology(), List.of(channel.toString())), channel)
                .truncatedUpTo();
        List<Located> chosen = ReplayLogCover.after(channel, after, truncatedUpTo, stored,
                located -> located.segment().firstSeq(), located -> located.segment().lastSeq());
        return new MongoRange(channel, after, chosen);
    }

    @Override
    public DeletedSegments truncate(ChannelId channel, long upToSeq) {
        channels.updateOne(channelKey(channel), Updates.max("truncatedUpTo", upToSeq),
                new UpdateOptions().upsert(true));
        DeletedSegments deleted = delete(and(channelFilter(channel), lte("lastSeq", upToSeq)));
        durability.sync();
        return deleted;
    }

    @Override
    public DeletedSegments deleteTopology(TopologyId topology) {
        DeletedSegments deleted = delete(eq("topology", topology.value()));
        channels.deleteMany(eq("topology", topology.value()));
        durability.sync();
        return deleted;
    }

    private DeletedSegments delete(Bson filter) {
        Document sums = segments.aggregate(List.of(Aggregates.match(filter),
                Aggregates.group(null, Accumulators.sum("bytes", "$sizeBytes")))).first();
        long count = segments.deleteMany(filter).getDeletedCount();
        return new DeletedSegments(count, sums == null ? 0 : ((Number) sums.get("bytes")).longValue());
    }

    /**
     * What the store keeps of a channel besides its segments.
     *
     * @param truncatedUpTo  the position its log was truncated at, 0 if never
     * @param minIncarnation the oldest incarnation of its sender whose segments it takes
     */
    private record ChannelState(long truncatedUpTo, int minIncarnation) {

        static final ChannelState NEW = new ChannelState(0, 0);
    }

    private static ChannelState state(Map<String, ChannelState> states, ChannelId channel) {
        return states.getOrDefault(channel.toString(), ChannelState.NEW);
    }

    /** The state of those channels that have one (truncated or fenced once); each field is missing until set. */
    private Map<String, ChannelState> channelStates(TopologyId topology, List<String> channelIds) {
        Map<String, ChannelState> states = new HashMap<>();
        for (Document document : channels.find(and(eq("topology", topology.value()), in("channel", channelIds)))) {
            Number truncatedUpTo = (Number) document.get("truncatedUpTo");
            Number minIncarnation = (Number) document.get("minIncarnation");
            states.put(document.getString("channel"), new ChannelState(
                    truncatedUpTo == null ? 0 : truncatedUpTo.longValue(),
                    minIncarnation == null ? 0 : minIncarnation.intValue()));
        }
        return states;
    }

    /** A channel's document in either collection, as an upsert's filter (the fields of the document it inserts). */
    private static Document channelKey(ChannelId channel) {
        return new Document("topology", channel.topology().value()).append("channel", channel.toString());
    }

    private static Bson channelFilter(ChannelId channel) {
        return and(eq("topology", channel.topology().value()), eq("channel", channel.toString()));
    }

    private static Document key(ChannelId channel, long firstSeq) {
        return channelKey(channel).append("firstSeq", firstSeq);
    }

    private static Document document(ReplayLogSegment segment, Date storedAt) {
        return key(segment.channel(), segment.firstSeq())
                .append("lastSeq", segment.lastSeq())
                .append("incarnation", segment.incarnation())
                .append("checkpoint", segment.checkpoint() == ReplayLogSegment.NO_CHECKPOINT ? null
                        : segment.checkpoint())
                .append("sizeBytes", segment.sizeBytes())
                .append("frames", new Binary(segment.segment().frames()))
                .append("storedAt", storedAt);
    }

    private static StoredSegment info(ChannelId channel, Document document) {
        Long checkpoint = document.getLong("checkpoint");
        return new StoredSegment(channel, document.getInteger("incarnation", 0), document.getLong("firstSeq"),
                document.getLong("lastSeq"), checkpoint == null ? ReplayLogSegment.NO_CHECKPOINT : checkpoint,
                document.getInteger("sizeBytes"));
    }

    private record Located(ObjectId id, StoredSegment segment) {
    }

    private final class MongoRange implements ReplayLogRange {

        private final ChannelId channel;
        private final long after;
        private final List<Located> chosen;

        MongoRange(ChannelId channel, long after, List<Located> chosen) {
            this.channel = channel;
            this.after = after;
            this.chosen = chosen;
        }

        @Override
        public ChannelId channel() {
            return channel;
        }

        @Override
        public List<StoredSegment> segments() {
            return chosen.stream().map(Located::segment).toList();
        }

        @Override
        public void transferTo(OutputStream out) throws IOException {
            ReplayLogBatchWriter writer = new ReplayLogBatchWriter(out);
            int from = 0;
            while (from < chosen.size()) {
                int to = from + 1;
                long bytes = chosen.get(from).segment().sizeBytes();
                while (to < chosen.size() && bytes + chosen.get(to).segment().sizeBytes() <= READ_BYTES) {
                    bytes += chosen.get(to).segment().sizeBytes();
                    to++;
                }
                write(writer, chosen.subList(from, to));
                from = to;
            }
            writer.flush();
        }

        private void write(ReplayLogBatchWriter writer, List<Located> group) throws IOException {
            int next = 0;
            try (MongoCursor<Document> cursor = segments.find(in("_id", group.stream().map(Located::id).toList()))
                    .sort(Sorts.ascending("firstSeq")).batchSize(group.size()).iterator()) {
                while (cursor.hasNext()) {
                    Document document = cursor.next();
                    if (!document.getObjectId("_id").equals(group.get(next).id())) {
                        break;
                    }
                    StoredSegment segment = group.get(next).segment();
                    byte[] frames = document.get("frames", Binary.class).getData();
                    writer.write(new ReplayLogSegment(new LogSegment(channel, segment.incarnation(),
                            segment.firstSeq(), segment.lastSeq(), frames), segment.checkpoint()));
                    next++;
                }
            }
            if (next < group.size()) {
                StoredSegment vanished = group.get(next).segment();
                throw new ReplayLogGapException(channel, after, vanished.firstSeq(), vanished.lastSeq());
            }
        }
    }
}
