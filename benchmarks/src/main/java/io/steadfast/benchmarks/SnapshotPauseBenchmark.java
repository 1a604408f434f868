package io.steadfast.benchmarks;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.task.ChannelPositions;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.Arrays;

/**
 * How long a task's thread is held by the snapshot of a keyed-count holding N keys (default 1,000,000): the
 * pause that checkpointing adds to processing (detaching the state), and how long encoding then takes on the
 * snapshot writer. Prints the table of several snapshots after warm-up.
 */
public final class SnapshotPauseBenchmark {

    private SnapshotPauseBenchmark() {
    }

    public static void main(String[] args) {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        OperatorRegistry registry = OperatorRegistry.load();
        OperatorType<?> type = registry.require(BuiltinOperators.KEYED_COUNT);
        KeyedProcessorDriver driver = new KeyedProcessorDriver(type, registry.bindConfig(type.name(), null),
                new OperatorInfo("bench", "count", 0, 1), registry.codecs());
        for (int i = 0; i < keys; i++) {
            driver.process(Event.of("key-" + i, 1L, i), event -> { });
        }
        long[] pauses = new long[7];
        long[] encodes = new long[7];
        int size = 0;
        for (int round = 0; round < pauses.length; round++) {
            long start = System.nanoTime();
            OperatorSnapshot.Prepared prepared = OperatorSnapshot.prepare(type.name(), driver, ChannelPositions.NONE);
            pauses[round] = System.nanoTime() - start;
            long encodeStart = System.nanoTime();
            size = prepared.write().sizeInBytes();
            encodes[round] = System.nanoTime() - encodeStart;
        }
        long[] measured = Arrays.copyOfRange(pauses, 2, pauses.length);
        Arrays.sort(measured);
        long[] encoded = Arrays.copyOfRange(encodes, 2, encodes.length);
        Arrays.sort(encoded);
        System.out.printf("%n| figure | value |%n| --- | --- |%n");
        System.out.printf("| keys in the keyed-count | %,d |%n", keys);
        System.out.printf("| snapshot size | %,.1f MiB |%n", size / 1048576.0);
        System.out.printf("| task-thread pause per snapshot, median of %d | %.1f ms |%n", measured.length,
                measured[measured.length / 2] / 1e6);
        System.out.printf("| task-thread pause per snapshot, longest | %.1f ms |%n", measured[measured.length - 1] / 1e6);
        System.out.printf("| encoding off the task thread, median | %.1f ms |%n", encoded[encoded.length / 2] / 1e6);
    }
}
