package io.steadfast.router.recovery;

import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.mongodb.core.mapping.Document;
import org.springframework.data.mongodb.core.mapping.Field;
import tools.jackson.databind.json.JsonMapper;

/**
 * Recoveries in the MongoDB collection {@code recoveries}, one document per recovery: its id, topology and status
 * on top (for people reading the collection) and the {@link Recovery} itself mapped field by field by Spring Data,
 * so that a new field of {@code Recovery} is stored without a change here. Every call goes to the database and
 * throws if it cannot be reached; {@link WriteBehindRecoveryStore} keeps the router going while it cannot.
 * Thread-safe.
 */
public final class MongoRecoveryStore implements RecoveryStore {

    public static final String COLLECTION = "recoveries";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final MongoOperations mongo;

    /** @param mongo a template with the router's mapping ({@link io.steadfast.router.store.RouterRecordsMapping}) */
    public MongoRecoveryStore(MongoOperations mongo) {
        this.mongo = mongo;
    }

    @Override
    public List<Recovery> loadAll() {
        return mongo.findAll(StoredRecovery.class).stream().map(StoredRecovery::recovery).toList();
    }

    @Override
    public void save(Recovery recovery) {
        mongo.save(new StoredRecovery(recovery.id(), recovery.topology(), recovery.status(), recovery, null));
    }

    /** Throws if the database does not answer {@code {ping: 1}}. */
    public void ping() {
        mongo.executeCommand(new org.bson.Document("ping", 1));
    }

    /**
     * A stored recovery.
     *
     * @param mapped the recovery; null in documents written by routers that stored it as JSON text
     * @param json the recovery as JSON text, as routers before Spring Data wrote it; null since
     */
    @Document(COLLECTION)
    record StoredRecovery(@Id long id, TopologyId topology, RecoveryStatus status,
                          @Field("recovery") @Nullable Recovery mapped, @Nullable String json) {

        Recovery recovery() {
            return mapped != null ? mapped : JSON.readValue(json, Recovery.class);
        }
    }
}
