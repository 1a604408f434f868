package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory of one data plane's spill files: {@code steadfast-spill-*} under the configured parent, created
 * when the first file is, deleted with whatever it still holds by {@link #delete()}. IO thread only.
 */
final class SpillDirectory {

    private static final Logger log = LoggerFactory.getLogger(SpillDirectory.class);

    private final Path parent;
    private Path directory;
    private long filesNamed;

    SpillDirectory(Path parent) {
        this.parent = parent;
    }

    /**
     * A path for a new spill file of {@code channel}, unique within this data plane; creates the directory first
     * if needed.
     *
     * @throws IOException if the directory cannot be created
     */
    Path newFile(ChannelId channel) throws IOException {
        if (directory == null) {
            Files.createDirectories(parent);
            directory = Files.createTempDirectory(parent, "steadfast-spill-");
            log.info("Output logs spill into {}", directory);
        }
        filesNamed++;
        return directory.resolve(channel + "." + filesNamed + ".spill");
    }

    /** Deletes the directory and every file left in it; failures are logged. No-op if never created. */
    void delete() {
        if (directory == null) {
            return;
        }
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(SpillDirectory::deleteQuietly);
            Files.delete(directory);
        } catch (IOException | UncheckedIOException e) {
            log.warn("Could not delete the spill directory {}: {}; delete it by hand", directory, e.toString());
        }
        directory = null;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
