package io.steadfast.router.store;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The embedded MongoDB-wire server over an H2 file, on a TCP port that stays the same across {@link #stop} and
 * {@link #start}: a store that goes down and comes back with its data, as a real MongoDB (or the
 * checkpoint-service's embedded store) does. Not thread-safe; tests drive it from their own thread.
 */
final class RestartableMongoServer implements AutoCloseable {

    private final Path file;
    private final @Nullable Path ownDirectory;
    private int port;
    private @Nullable MongoServer server;

    /** Starts on a free port of 127.0.0.1, with the data in {@code file} (created if missing). */
    RestartableMongoServer(Path file) {
        this(file, null);
    }

    private RestartableMongoServer(Path file, @Nullable Path ownDirectory) {
        this.file = file;
        this.ownDirectory = ownDirectory;
        start();
    }

    /** Starts with the data in a new temporary directory, deleted by {@link #close}. */
    static RestartableMongoServer inTemporaryDirectory() {
        try {
            Path directory = Files.createTempDirectory("router-store");
            return new RestartableMongoServer(directory.resolve("router-store.h2"), directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts listening again, on the same port and file. */
    void start() {
        if (server != null) {
            throw new IllegalStateException("already running on port " + port);
        }
        MongoServer started = new MongoServer(new H2Backend(file.toString()));
        started.bind("127.0.0.1", port);
        port = started.getLocalAddress().getPort();
        server = started;
    }

    /** Closes every connection and the file, as a crash of the store looks to its clients. */
    void stop() {
        if (server != null) {
            server.shutdownNow();
            server = null;
        }
    }

    int port() {
        return port;
    }

    String uri(String database) {
        return "mongodb://127.0.0.1:" + port + "/" + database;
    }

    /** Stops, and deletes the data if it is in a directory of its own. */
    @Override
    public void close() {
        stop();
        if (ownDirectory != null) {
            try (Stream<Path> files = Files.walk(ownDirectory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
