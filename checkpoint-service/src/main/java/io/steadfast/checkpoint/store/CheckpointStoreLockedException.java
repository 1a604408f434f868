package io.steadfast.checkpoint.store;

import java.nio.file.Path;

/** The embedded store's H2 file is open in another process (an H2 file can be opened by one process only). */
public class CheckpointStoreLockedException extends RuntimeException {

    private final Path file;

    public CheckpointStoreLockedException(Path file, Throwable cause) {
        super("The embedded checkpoint store file " + file.toAbsolutePath() + " is locked by another process", cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
