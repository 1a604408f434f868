package io.steadfast.router.topology;

import static org.springframework.data.mongodb.core.query.Criteria.where;
import static org.springframework.data.mongodb.core.query.Query.query;

import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.mongodb.core.query.Query;

/**
 * A {@link TopologyRepository} in the MongoDB collection {@code topologies}, so a restarted router knows what
 * runs: one {@link StoredTopology} per topology, keyed by its id. Every call goes to the database and throws if it
 * cannot be reached; {@link WriteBehindTopologyRepository} keeps the router going while it cannot. Thread-safe.
 */
public final class MongoTopologyRepository implements TopologyRepository {

    public static final String COLLECTION = "topologies";

    private final MongoOperations mongo;
    /** Stamps {@code savedAt}, which only people read. */
    private final Clock clock = Clock.systemUTC();

    /** @param mongo a template with the router's mapping ({@link io.steadfast.router.store.RouterRecordsMapping}) */
    public MongoTopologyRepository(MongoOperations mongo) {
        this.mongo = mongo;
    }

    @Override
    public boolean add(DeployedTopology topology) {
        try {
            mongo.insert(StoredTopology.of(topology, clock.instant()));
            return true;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public Optional<DeployedTopology> find(TopologyId id) {
        return Optional.ofNullable(mongo.findById(id, StoredTopology.class)).map(StoredTopology::toTopology);
    }

    @Override
    public List<DeployedTopology> all() {
        return mongo.find(new Query().with(Sort.by("_id")), StoredTopology.class).stream()
                .map(StoredTopology::toTopology).toList();
    }

    @Override
    public boolean replace(DeployedTopology topology) {
        return mongo.replace(byId(topology.id()), StoredTopology.of(topology, clock.instant())).getMatchedCount() > 0;
    }

    @Override
    public boolean remove(TopologyId id) {
        return mongo.remove(byId(id), StoredTopology.class).getDeletedCount() > 0;
    }

    /** Stores a topology whether or not one with its id is stored (an upsert: repeating it is harmless). */
    public void save(DeployedTopology topology) {
        mongo.save(StoredTopology.of(topology, clock.instant()));
    }

    /** Throws if the database does not answer {@code {ping: 1}}. */
    public void ping() {
        mongo.executeCommand(new Document("ping", 1));
    }

    private static Query byId(TopologyId id) {
        return query(where("_id").is(id));
    }
}
