package io.steadfast.checkpoint.checkpoint;

import com.mongodb.client.MongoClient;
import io.steadfast.checkpoint.store.StoreDurability;
import org.springframework.data.mongodb.core.MongoOperations;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.SimpleMongoClientDatabaseFactory;
import org.springframework.data.mongodb.core.convert.DefaultMongoTypeMapper;
import org.springframework.data.mongodb.core.convert.MappingMongoConverter;
import org.springframework.data.mongodb.core.index.MongoPersistentEntityIndexResolver;
import org.springframework.data.mongodb.core.mapping.MongoMappingContext;

/**
 * How the checkpoint-service's records are mapped by Spring Data: no {@code _class} hint (each collection holds one
 * type), writes acknowledged by a majority and journaled ({@link StoreDurability#WRITE_CONCERN}, as for the stores
 * on the driver), and the indexes a document type declares ({@code @CompoundIndex}, {@code @Indexed}) created when
 * its store is made rather than by Spring Data's automatic index creation, which is off by default.
 */
public final class CheckpointRecordsMapping {

    private CheckpointRecordsMapping() {
    }

    /** A template on {@code database} of {@code client}. */
    public static MongoTemplate template(MongoClient client, String database) {
        MongoTemplate template = new MongoTemplate(new SimpleMongoClientDatabaseFactory(client, database));
        ((MappingMongoConverter) template.getConverter()).setTypeMapper(new DefaultMongoTypeMapper(null));
        template.setWriteConcern(StoreDurability.WRITE_CONCERN);
        return template;
    }

    /** Creates the indexes {@code type} declares, where missing. */
    static void ensureIndexes(MongoOperations mongo, Class<?> type) {
        var indexes = mongo.indexOps(type);
        new MongoPersistentEntityIndexResolver((MongoMappingContext) mongo.getConverter().getMappingContext())
                .resolveIndexFor(type).forEach(indexes::createIndex);
    }
}
