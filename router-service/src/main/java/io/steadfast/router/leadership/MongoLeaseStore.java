package io.steadfast.router.leadership;

import com.mongodb.ConnectionString;
import com.mongodb.ErrorCategory;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import java.net.URI;
import java.time.Duration;
import java.util.Date;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * The router lease as one document of the router's MongoDB database, collection {@value #COLLECTION}, id = the lease
 * name: {@code {holder, holderUrl, epoch, renewedAt, version}}. A write matches the version read and increments it,
 * so it is a compare-and-set; the first lease is an insert, which the unique id makes one too. Works wherever the
 * replicas share a MongoDB, the embedded store of one machine included.
 */
public final class MongoLeaseStore implements LeaseStore {

    public static final String COLLECTION = "routerLease";

    private final MongoCollection<Document> leases;
    private final String name;
    private final AutoCloseable client;

    public MongoLeaseStore(MongoCollection<Document> leases, String name) {
        this(leases, name, () -> { });
    }

    private MongoLeaseStore(MongoCollection<Document> leases, String name, AutoCloseable client) {
        this.leases = leases;
        this.name = name;
        this.client = client;
    }

    /**
     * A store on a client of its own to the database of {@code uri} ({@code defaultDatabase} if it names none), whose
     * calls each give up after {@code timeout}: a leader must learn that the store is out of reach well within its
     * renew deadline.
     */
    public static MongoLeaseStore connect(String uri, String defaultDatabase, String name, Duration timeout) {
        ConnectionString connection = new ConnectionString(uri);
        int millis = Math.toIntExact(timeout.toMillis());
        MongoClient client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(connection)
                .applyToClusterSettings(c -> c.serverSelectionTimeout(millis, TimeUnit.MILLISECONDS))
                .applyToSocketSettings(s -> s.connectTimeout(millis, TimeUnit.MILLISECONDS)
                        .readTimeout(millis, TimeUnit.MILLISECONDS))
                .build());
        String database = connection.getDatabase() == null || connection.getDatabase().isBlank() ? defaultDatabase
                : connection.getDatabase();
        return new MongoLeaseStore(client.getDatabase(database).getCollection(COLLECTION), name, client);
    }

    @Override
    public Optional<StoredLease> read() {
        Document stored = leases.find(Filters.eq("_id", name)).first();
        if (stored == null) {
            return Optional.empty();
        }
        LeaseRecord record = new LeaseRecord(stored.getString("holder"), URI.create(stored.getString("holderUrl")),
                stored.get("epoch", Number.class).longValue(), stored.getDate("renewedAt").toInstant());
        return Optional.of(new StoredLease(record, Long.toString(stored.get("version", Number.class).longValue())));
    }

    @Override
    public boolean replace(Optional<StoredLease> expected, LeaseRecord next) {
        if (expected.isEmpty()) {
            try {
                leases.insertOne(document(next, 1).append("_id", name));
                return true;
            } catch (MongoWriteException e) {
                if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
                    return false;
                }
                throw e;
            }
        }
        long version = Long.parseLong(expected.get().version());
        return leases.updateOne(Filters.and(Filters.eq("_id", name), Filters.eq("version", version)),
                new Document("$set", document(next, version + 1))).getMatchedCount() == 1;
    }

    private static Document document(LeaseRecord record, long version) {
        return new Document("holder", record.holder()).append("holderUrl", record.holderUrl().toString())
                .append("epoch", record.epoch()).append("renewedAt", Date.from(record.renewedAt()))
                .append("version", version);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (Exception e) {
            throw new IllegalStateException("Could not close the MongoDB client of the " + describe(), e);
        }
    }

    @Override
    public String describe() {
        return "lease '" + name + "' in MongoDB collection " + leases.getNamespace();
    }
}
