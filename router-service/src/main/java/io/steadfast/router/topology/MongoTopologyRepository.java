package io.steadfast.router.topology;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link TopologyRepository} in the MongoDB collection {@code topologies}, so a restarted router knows what
 * runs: one document per topology, {@code {_id: id, spec: "<json>", plan: "<json>", placement: [{task, host}],
 * deployedAt, epoch}}. Spec and plan are kept as JSON strings (the plan's own Jackson form), the placement as a
 * list because task ids are not safe field names. Every call goes to the database and throws if it cannot be
 * reached; {@link WriteBehindTopologyRepository} keeps the router going while it cannot. Thread-safe.
 */
public final class MongoTopologyRepository implements TopologyRepository {

    public static final String COLLECTION = "topologies";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MongoDatabase database;
    private final MongoCollection<Document> collection;

    public MongoTopologyRepository(MongoDatabase database) {
        this.database = database;
        this.collection = database.getCollection(COLLECTION);
    }

    @Override
    public boolean add(DeployedTopology topology) {
        try {
            collection.insertOne(toDocument(topology));
            return true;
        } catch (MongoWriteException e) {
            if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public Optional<DeployedTopology> find(TopologyId id) {
        return Optional.ofNullable(collection.find(Filters.eq("_id", id.value())).first())
                .map(MongoTopologyRepository::fromDocument);
    }

    @Override
    public List<DeployedTopology> all() {
        List<DeployedTopology> all = new ArrayList<>();
        collection.find().sort(Sorts.ascending("_id")).forEach(document -> all.add(fromDocument(document)));
        return all;
    }

    @Override
    public boolean replace(DeployedTopology topology) {
        return collection.replaceOne(Filters.eq("_id", topology.id().value()), toDocument(topology))
                .getMatchedCount() > 0;
    }

    @Override
    public boolean remove(TopologyId id) {
        return collection.deleteOne(Filters.eq("_id", id.value())).getDeletedCount() > 0;
    }

    /** Stores a topology whether or not one with its id is stored (an upsert: repeating it is harmless). */
    public void save(DeployedTopology topology) {
        collection.replaceOne(Filters.eq("_id", topology.id().value()), toDocument(topology),
                new ReplaceOptions().upsert(true));
    }

    /** Throws if the database does not answer {@code {ping: 1}}. */
    public void ping() {
        database.runCommand(new Document("ping", 1));
    }

    static Document toDocument(DeployedTopology topology) {
        List<Document> placement = new ArrayList<>();
        topology.placement().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> placement.add(new Document("task", e.getKey().toString()).append("host", e.getValue().value())
                        .append("incarnation", topology.incarnationOf(e.getKey()))));
        return new Document("_id", topology.id().value())
                .append("spec", JSON.writeValueAsString(topology.spec()))
                .append("plan", JSON.writeValueAsString(topology.plan()))
                .append("epoch", topology.plan().epoch())
                .append("placement", placement)
                .append("deployedAt", topology.deployedAt().toString())
                .append("savedAt", new Date());
    }

    static DeployedTopology fromDocument(Document document) {
        Map<TaskId, HostId> placement = new LinkedHashMap<>();
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        for (Document entry : document.getList("placement", Document.class)) {
            TaskId task = TaskId.parse(entry.getString("task"));
            placement.put(task, new HostId(entry.getString("host")));
            Integer incarnation = entry.getInteger("incarnation");
            if (incarnation != null && incarnation > 0) {
                incarnations.put(task, incarnation);
            }
        }
        return new DeployedTopology(TopologyId.of(document.getString("_id")),
                JSON.readTree(document.getString("spec")),
                JSON.readValue(document.getString("plan"), ExecutionPlan.class), placement,
                java.time.Instant.parse(document.getString("deployedAt")), incarnations);
    }
}
