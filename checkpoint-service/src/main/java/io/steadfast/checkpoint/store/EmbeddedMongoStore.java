package io.steadfast.checkpoint.store;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;

/**
 * The embedded store: a MongoDB-wire server (mongo-java-server) over an H2 file, reached through the ordinary
 * MongoDB driver like any MongoDB. {@link #close()} shuts the server down and releases the file.
 */
public final class EmbeddedMongoStore implements AutoCloseable {

    private final Path file;
    private final H2Backend backend;
    private final MongoServer server;

    private EmbeddedMongoStore(Path file, H2Backend backend, MongoServer server) {
        this.file = file;
        this.backend = backend;
        this.server = server;
    }

    /**
     * Opens (or creates) the H2 file and starts listening.
     *
     * @throws CheckpointStoreLockedException when another process has the file open
     */
    public static EmbeddedMongoStore start(Path file, String bindAddress, int port) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the directory of the embedded checkpoint store " + file
                    + "; check its permissions or set steadfast.checkpoint.embedded.data-dir", e);
        }
        H2Backend backend;
        try {
            backend = new H2Backend(file.toString());
        } catch (MVStoreException e) {
            if (e.getErrorCode() == DataUtils.ERROR_FILE_LOCKED) {
                throw new CheckpointStoreLockedException(file, e);
            }
            throw e;
        }
        MongoServer server = new MongoServer(backend);
        try {
            server.bind(bindAddress, port);
        } catch (RuntimeException e) {
            server.shutdownNow();
            throw e;
        }
        return new EmbeddedMongoStore(file, backend, server);
    }

    /** {@code mongodb://host:port}, for the driver. */
    public String connectionString() {
        return server.getConnectionString();
    }

    public Path file() {
        return file;
    }

    /** Commits the H2 backend: without it, writes the server acknowledged can be lost when the process dies. */
    public void commit() {
        backend.commit();
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
