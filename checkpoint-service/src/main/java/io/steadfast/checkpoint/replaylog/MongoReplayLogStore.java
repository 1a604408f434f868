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
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.util.ArrayList;
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
 * (topology, channel, firstSeq), with the frames as one binary field; {@code replay_log_channels} holds each
 * channel's truncation point, so that a range reaching below it is reported as a gap even when no segment is left
 * to show one, and late uploads below it are skipped.
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
        Map<String, Long> truncatedUpTo = truncationPoints(topology, byKey.values().stream()
                .map(segment -> segment.channel().toString()).distinct().toList());
        List<ReplaceOneModel<Document>> writes = new ArrayList<>();
        long bytes = 0;
        Date storedAt = Date.from(clock.instant());
        for (ReplayLogSegment segment : byKey.values()) {
            if (segment.lastSeq() <= truncatedUpTo.getOrDefault(segment.channel().toString(), 0L)) {
                continue;
            }
            writes.add(new ReplaceOneModel<>(key(segment.channel(), segment.firstSeq()), document(segment, storedAt),
                    new ReplaceOptions().upsert(true)));
            bytes += segment.sizeBytes();
        }
        int skipped = byKey.size() - writes.size();
        if (writes.isEmpty()) {
            return new StoredSegments(topology, 0, 0, 0, skipped);
        }
        BulkWriteResult result = write(writes);
        durability.sync();
        return new StoredSegments(topology, writes.size(), bytes, writes.size() - result.getUpserts().size(),
                skipped);
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
        long truncatedUpTo = truncationPoints(channel.topology(), List.of(channel.toString()))
                .getOrDefault(channel.toString(), 0L);
        List<Located> chosen = ReplayLogCover.after(channel, after, truncatedUpTo, stored,
                located -> located.segment().firstSeq(), located -> located.segment().lastSeq());
        return new MongoRange(channel, after, chosen);
    }

    @Override
    public DeletedSegments truncate(ChannelId channel, long upToSeq) {
        channels.updateOne(new Document("topology", channel.topology().value()).append("channel", channel.toString()),
                Updates.max("truncatedUpTo", upToSeq), new UpdateOptions().upsert(true));
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

    private Map<String, Long> truncationPoints(TopologyId topology, List<String> channelIds) {
        Map<String, Long> points = new HashMap<>();
        for (Document document : channels.find(and(eq("topology", topology.value()), in("channel", channelIds)))) {
            points.put(document.getString("channel"), ((Number) document.get("truncatedUpTo")).longValue());
        }
        return points;
    }

    private static Bson channelFilter(ChannelId channel) {
        return and(eq("topology", channel.topology().value()), eq("channel", channel.toString()));
    }

    private static Document key(ChannelId channel, long firstSeq) {
        return new Document("topology", channel.topology().value()).append("channel", channel.toString())
                .append("firstSeq", firstSeq);
    }

    private static Document document(ReplayLogSegment segment, Date storedAt) {
        return key(segment.channel(), segment.firstSeq())
                .append("lastSeq", segment.lastSeq())
                .append("checkpoint", segment.checkpoint() == ReplayLogSegment.NO_CHECKPOINT ? null
                        : segment.checkpoint())
                .append("sizeBytes", segment.sizeBytes())
                .append("frames", new Binary(segment.segment().frames()))
                .append("storedAt", storedAt);
    }

    private static StoredSegment info(ChannelId channel, Document document) {
        Long checkpoint = document.getLong("checkpoint");
        return new StoredSegment(channel, document.getLong("firstSeq"), document.getLong("lastSeq"),
                checkpoint == null ? ReplayLogSegment.NO_CHECKPOINT : checkpoint, document.getInteger("sizeBytes"));
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
                    writer.write(new ReplayLogSegment(new LogSegment(channel, segment.firstSeq(), segment.lastSeq(),
                            frames), segment.checkpoint()));
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
