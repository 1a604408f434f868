package io.steadfast.router.recovery;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recoveries in the MongoDB collection {@code recoveries}: {@code {_id: id, topology, status, json: "<the
 * recovery as JSON>"}}. Every call goes to the database and throws if it cannot be reached;
 * {@link WriteBehindRecoveryStore} keeps the router going while it cannot. Thread-safe.
 */
public final class MongoRecoveryStore implements RecoveryStore {

    public static final String COLLECTION = "recoveries";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MongoDatabase database;
    private final MongoCollection<Document> collection;

    public MongoRecoveryStore(MongoDatabase database) {
        this.database = database;
        this.collection = database.getCollection(COLLECTION);
    }

    @Override
    public List<Recovery> loadAll() {
        List<Recovery> all = new ArrayList<>();
        collection.find().forEach(document -> all.add(JSON.readValue(document.getString("json"), Recovery.class)));
        return all;
    }

    @Override
    public void save(Recovery recovery) {
        collection.replaceOne(Filters.eq("_id", recovery.id()), new Document("_id", recovery.id())
                .append("topology", recovery.topology().value()).append("status", recovery.status().name())
                .append("json", JSON.writeValueAsString(recovery)), new ReplaceOptions().upsert(true));
    }

    /** Throws if the database does not answer {@code {ping: 1}}. */
    public void ping() {
        database.runCommand(new Document("ping", 1));
    }
}
