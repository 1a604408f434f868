package io.steadfast.runtime.dataplane;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How the output logs ({@link Retention#UNTIL_TRUNCATED}) of one {@link DataPlane} use memory and disk. Immutable
 * and validated on construction.
 *
 * @param memoryBytes    payload bytes the output log of one channel keeps in memory; beyond it the oldest frames
 *                       move to spill files and are read back when a replay needs them
 * @param spillDirectory where each data plane creates, when it first spills, its own {@code steadfast-spill-*}
 *                       directory, which it deletes when it closes; created if missing
 * @param spillFileBytes size at which a channel's spill file is closed and a new one begun; a file is deleted once
 *                       truncation has dropped all of its frames, so this is also about how much disk a channel
 *                       may hold beyond what its log still needs
 */
public record OutputLogConfig(long memoryBytes, Path spillDirectory, long spillFileBytes) {

    public static final long DEFAULT_MEMORY_BYTES = 16L << 20;
    public static final long DEFAULT_SPILL_FILE_BYTES = 8L << 20;

    public OutputLogConfig {
        if (memoryBytes < 1) {
            throw new IllegalArgumentException("DataPlaneConfig.outputLog.memoryBytes must be >= 1, was " + memoryBytes);
        }
        Objects.requireNonNull(spillDirectory, "spillDirectory");
        if (spillFileBytes < 1) {
            throw new IllegalArgumentException("DataPlaneConfig.outputLog.spillFileBytes must be >= 1, was "
                    + spillFileBytes);
        }
    }

    /** 16 MiB in memory per channel, spilling into 8 MiB files under {@code java.io.tmpdir}. */
    public static OutputLogConfig defaults() {
        return new OutputLogConfig(DEFAULT_MEMORY_BYTES, Path.of(System.getProperty("java.io.tmpdir")),
                DEFAULT_SPILL_FILE_BYTES);
    }

    public OutputLogConfig withMemoryBytes(long newMemoryBytes) {
        return new OutputLogConfig(newMemoryBytes, spillDirectory, spillFileBytes);
    }

    public OutputLogConfig withSpillDirectory(Path newSpillDirectory) {
        return new OutputLogConfig(memoryBytes, newSpillDirectory, spillFileBytes);
    }

    public OutputLogConfig withSpillFileBytes(long newSpillFileBytes) {
        return new OutputLogConfig(memoryBytes, spillDirectory, newSpillFileBytes);
    }
}
