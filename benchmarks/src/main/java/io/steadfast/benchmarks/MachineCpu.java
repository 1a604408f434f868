package io.steadfast.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * How busy the machine's CPUs are, from the kernel's counters ({@code /proc/stat}, Linux): a benchmark figure that
 * says whether a measurement was taken on a saturated machine.
 */
final class MachineCpu {

    private static final Path STAT = Path.of("/proc/stat");

    private MachineCpu() {
    }

    /** The share of CPU time (0..1) spent on anything but idling and waiting for IO over the next {@code window}. */
    static OptionalDouble busyOver(Duration window) throws InterruptedException {
        long[] before = read();
        if (before.length == 0) {
            return OptionalDouble.empty();
        }
        try {
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(window.toMillis(),
                    TimeUnit.MILLISECONDS)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        long[] after = read();
        if (after.length == 0) {
            return OptionalDouble.empty();
        }
        long total = 0;
        for (int i = 0; i < Math.min(before.length, after.length); i++) {
            total += after[i] - before[i];
        }
        long idle = (after[3] - before[3]) + (after.length > 4 ? after[4] - before[4] : 0);
        return total <= 0 ? OptionalDouble.empty() : OptionalDouble.of(1.0 - (double) idle / total);
    }

    /** The aggregate "cpu" line's counters (user, nice, system, idle, iowait, ...), or none if unreadable. */
    private static long[] read() {
        try {
            List<String> lines = Files.readAllLines(STAT);
            String[] fields = lines.get(0).trim().split("\\s+");
            if (!fields[0].equals("cpu") || fields.length < 5) {
                return new long[0];
            }
            return Arrays.stream(fields, 1, fields.length).mapToLong(Long::parseLong).toArray();
        } catch (IOException | RuntimeException e) {
            return new long[0];
        }
    }
}
