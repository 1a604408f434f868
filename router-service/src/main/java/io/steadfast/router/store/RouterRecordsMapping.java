package io.steadfast.router.store;

import com.mongodb.client.MongoClient;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.springframework.data.convert.ConverterBuilder;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.SimpleMongoClientDatabaseFactory;
import org.springframework.data.mongodb.core.convert.DefaultMongoTypeMapper;
import org.springframework.data.mongodb.core.convert.MappingMongoConverter;
import org.springframework.data.mongodb.core.convert.MongoCustomConversions;
import org.springframework.data.mongodb.core.convert.NoOpDbRefResolver;
import org.springframework.data.mongodb.core.mapping.MongoMappingContext;

/**
 * How the router's records are mapped to MongoDB documents by Spring Data: typed ids ({@link TopologyId},
 * {@link HostId}, {@link TaskId}) are stored as their text, no {@code _class} hint is written (each collection
 * holds one type), and a dot in a map key (a task id can hold one) is stored as {@value #MAP_KEY_DOT}, which MongoDB
 * would otherwise read as a path. Instants are BSON dates, to the millisecond.
 */
public final class RouterRecordsMapping {

    /** Stands for '.' in stored map keys (FULLWIDTH FULL STOP), read back as '.'. */
    static final String MAP_KEY_DOT = "\uFF0E";

    private RouterRecordsMapping() {
    }

    /** A template on {@code database} of {@code client} with the router's mapping. */
    public static MongoTemplate template(MongoClient client, String database) {
        MongoCustomConversions conversions = new MongoCustomConversions(List.of(
                ConverterBuilder.reading(String.class, TopologyId.class, TopologyId::of).andWriting(TopologyId::value),
                ConverterBuilder.reading(String.class, HostId.class, HostId::new).andWriting(HostId::value),
                ConverterBuilder.reading(String.class, TaskId.class, TaskId::parse).andWriting(TaskId::toString)));
        MongoMappingContext context = new MongoMappingContext();
        context.setSimpleTypeHolder(conversions.getSimpleTypeHolder());
        context.afterPropertiesSet();
        MappingMongoConverter converter = new MappingMongoConverter(NoOpDbRefResolver.INSTANCE, context);
        converter.setCustomConversions(conversions);
        converter.setTypeMapper(new DefaultMongoTypeMapper(null));
        converter.setMapKeyDotReplacement(MAP_KEY_DOT);
        converter.afterPropertiesSet();
        return new MongoTemplate(new SimpleMongoClientDatabaseFactory(client, database), converter);
    }
}
