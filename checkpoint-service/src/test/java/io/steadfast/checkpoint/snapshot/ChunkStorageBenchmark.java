package io.steadfast.checkpoint.snapshot;

import static org.springframework.data.mongodb.core.query.Criteria.where;
import static org.springframework.data.mongodb.core.query.Query.query;

import ch.qos.logback.classic.Level;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.steadfast.checkpoint.checkpoint.CheckpointRecordsMapping;
import io.steadfast.checkpoint.store.EmbeddedMongoStore;
import io.steadfast.checkpoint.store.StoreDurability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.ToLongFunction;
import org.bson.Document;
import org.bson.types.Binary;
import org.bson.types.ObjectId;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Snapshot chunks written and read one at a time, as {@link MongoSnapshotStore} does, through the raw driver (its
 * path) and through an equivalent Spring Data {@link MongoTemplate} path with a mapped chunk record, against the
 * embedded store as the service runs it (H2 file, driver over TCP; or its memory backend). The paths run interleaved
 * chunk by chunk, A B B A, each round on fresh collections with the same unique (upload, n) index; a table of ops/s,
 * MB/s and the Spring Data / driver ratio (medians over the rounds) is printed. A benchmark, not a test:
 * docs/design.md keeps its figures.
 *
 * <pre>
 * mvn -q -pl checkpoint-service -am test-compile
 * mvn -q -pl checkpoint-service dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd checkpoint-service &amp;&amp; java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *     io.steadfast.checkpoint.snapshot.ChunkStorageBenchmark [64 KiB chunks] [1 MiB chunks] [rounds] [h2|memory]
 * </pre>
 * The defaults are 128, 16, 15 and h2.
 */
public final class ChunkStorageBenchmark {

    private static final String DATABASE = "chunk-benchmark";
    private static final int KIB = 1024;

    /** A chunk as Spring Data would map it: the fields of the driver's chunk document. */
    @org.springframework.data.mongodb.core.mapping.Document("chunks_template")
    record Chunk(@Id @Nullable ObjectId id, ObjectId upload, String topology, long checkpointId, int n, byte[] data) {
    }

    /** One way of writing and reading chunks. */
    private interface ChunkPath {
        String name();

        void reset();

        void write(ObjectId upload, int n, byte[] data);

        byte[] read(ObjectId upload, int n);
    }

    private record Result(String path, int chunkBytes, int chunks, long writeNanos, long readNanos) {
    }

    private ChunkStorageBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        int smallChunks = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int largeChunks = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        boolean memory = args.length > 3 && args[3].equals("memory");
        Path dir = Files.createTempDirectory("steadfast-chunk-benchmark");
        MongoServer server = memory ? new MongoServer(new MemoryBackend()) : null;
        try (EmbeddedMongoStore store = memory ? null
                : EmbeddedMongoStore.start(dir.resolve("store.mv"), "127.0.0.1", 0);
             MongoClient client = MongoClients.create(memory ? server.bindAndGetConnectionString()
                     : store.connectionString())) {
            MongoTemplate template = CheckpointRecordsMapping.template(client, DATABASE);
            List<ChunkPath> paths = List.of(driverPath(template), templatePath(template));
            List<Result> results = new ArrayList<>();
            for (int[] size : new int[][] {{64 * KIB, smallChunks}, {1024 * KIB, largeChunks}}) {
                byte[] data = new byte[size[0]];
                new Random(size[0]).nextBytes(data);
                run(paths, data, Math.max(1, size[1] / 4)); // warm-up, not counted
                for (int round = 0; round < rounds; round++) {
                    results.addAll(run(paths, data, size[1]));
                }
            }
            System.out.printf(Locale.ROOT, "%nembedded store, %s backend", memory ? "memory" : "H2 file");
            print(results, rounds);
        } finally {
            if (server != null) {
                server.shutdownNow();
            }
            try (var files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /**
     * One round: {@code chunks} chunks written by each path, then read back, the paths alternating chunk by chunk (A B,
     * then B A) so that both see the same load on a shared machine.
     */
    private static List<Result> run(List<ChunkPath> paths, byte[] data, int chunks) {
        long[] writeNanos = new long[paths.size()];
        long[] readNanos = new long[paths.size()];
        ObjectId upload = new ObjectId();
        paths.forEach(ChunkPath::reset);
        for (int n = 0; n < chunks; n++) {
            for (int i = 0; i < paths.size(); i++) {
                int p = n % 2 == 0 ? i : paths.size() - 1 - i;
                long start = System.nanoTime();
                paths.get(p).write(upload, n, data);
                writeNanos[p] += System.nanoTime() - start;
            }
        }
        for (int n = 0; n < chunks; n++) {
            for (int i = 0; i < paths.size(); i++) {
                int p = n % 2 == 0 ? i : paths.size() - 1 - i;
                long start = System.nanoTime();
                byte[] read = paths.get(p).read(upload, n);
                readNanos[p] += System.nanoTime() - start;
                if (read.length != data.length) {
                    throw new IllegalStateException(paths.get(p).name() + " read " + read.length + " bytes of chunk "
                            + n + ", wrote " + data.length);
                }
            }
        }
        List<Result> results = new ArrayList<>();
        for (int p = 0; p < paths.size(); p++) {
            results.add(new Result(paths.get(p).name(), data.length, chunks, writeNanos[p], readNanos[p]));
        }
        return results;
    }

    /** The driver, as {@link MongoSnapshotStore} writes and reads its chunks. */
    private static ChunkPath driverPath(MongoTemplate template) {
        return new ChunkPath() {
            private MongoCollection<Document> chunks;

            @Override
            public String name() {
                return "driver";
            }

            @Override
            public void reset() {
                if (template.collectionExists("chunks_driver")) {
                    template.getDb().getCollection("chunks_driver").drop();
                }
                chunks = template.getDb().getCollection("chunks_driver")
                        .withWriteConcern(StoreDurability.WRITE_CONCERN);
                chunks.createIndex(Indexes.ascending("upload", "n"), new IndexOptions().unique(true));
            }

            @Override
            public void write(ObjectId upload, int n, byte[] data) {
                chunks.insertOne(new Document("upload", upload).append("topology", "bench").append("checkpointId", 1L)
                        .append("n", n).append("data", new Binary(data)));
            }

            @Override
            public byte[] read(ObjectId upload, int n) {
                return chunks.find(new Document("upload", upload).append("n", n)).first()
                        .get("data", Binary.class).getData();
            }
        };
    }

    /** The same chunks through the template, mapped by Spring Data. */
    private static ChunkPath templatePath(MongoTemplate template) {
        return new ChunkPath() {
            @Override
            public String name() {
                return "spring-data";
            }

            @Override
            public void reset() {
                if (template.collectionExists(Chunk.class)) {
                    template.dropCollection(Chunk.class);
                }
                template.getCollection(template.getCollectionName(Chunk.class))
                        .createIndex(Indexes.ascending("upload", "n"), new IndexOptions().unique(true));
            }

            @Override
            public void write(ObjectId upload, int n, byte[] data) {
                template.insert(new Chunk(null, upload, "bench", 1L, n, data));
            }

            @Override
            public byte[] read(ObjectId upload, int n) {
                return template.findOne(query(where("upload").is(upload).and("n").is(n)), Chunk.class).data();
            }
        };
    }

    /**
     * Per chunk size and path, the median over the rounds of ops/s and MB/s; and the median (min-max) over the rounds
     * of the ratio Spring Data / driver, the two paths of a round having run chunk by chunk side by side, so that a
     * load spike on the shared machine moves one round rather than the figure.
     */
    private static void print(List<Result> results, int rounds) {
        System.out.printf(Locale.ROOT, "%n%d rounds per path, interleaved; medians over the rounds%n", rounds);
        System.out.printf(Locale.ROOT, "%-9s %-12s %10s %10s %10s %10s  %-17s %-17s%n", "chunk", "path",
                "write op/s", "write MB/s", "read op/s", "read MB/s", "write ratio", "read ratio");
        for (int chunkBytes : results.stream().mapToInt(Result::chunkBytes).distinct().toArray()) {
            List<Result> driver = of(results, "driver", chunkBytes);
            List<Result> template = of(results, "spring-data", chunkBytes);
            for (List<Result> path : List.of(driver, template)) {
                double writes = median(path.stream().mapToDouble(r -> r.chunks() / (r.writeNanos() / 1e9)).toArray());
                double reads = median(path.stream().mapToDouble(r -> r.chunks() / (r.readNanos() / 1e9)).toArray());
                boolean isDriver = path == driver;
                System.out.printf(Locale.ROOT, "%-9s %-12s %10.0f %10.1f %10.0f %10.1f  %-17s %-17s%n",
                        chunkBytes / KIB + " KiB", path.get(0).path(), writes, writes * chunkBytes / 1e6, reads,
                        reads * chunkBytes / 1e6, isDriver ? "1" : ratios(driver, template, Result::writeNanos),
                        isDriver ? "1" : ratios(driver, template, Result::readNanos));
            }
        }
        System.out.println("ratio: spring-data throughput / driver throughput in the same round (below 1: slower)");
    }

    private static List<Result> of(List<Result> results, String path, int chunkBytes) {
        return results.stream().filter(r -> r.path().equals(path) && r.chunkBytes() == chunkBytes).toList();
    }

    /** "median (min-max)" of the per-round throughput ratios; a ratio of times, driver over template. */
    private static String ratios(List<Result> driver, List<Result> template, ToLongFunction<Result> nanos) {
        double[] ratios = new double[driver.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = (double) nanos.applyAsLong(driver.get(i)) / nanos.applyAsLong(template.get(i));
        }
        Arrays.sort(ratios);
        return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", median(ratios), ratios[0], ratios[ratios.length - 1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
