package io.steadfast.benchmarks;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.voting.VersionBallot;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cost of the vote itself, without the data plane: a vote task's PE, driven in this thread, takes the three
 * agreeing ballots of each input over many keys, as a majority vote of three versions does in the steady state. Prints
 * inputs voted per second and the cost per input, the median of five rounds after two of warm-up.
 */
public final class VotePeBenchmark {

    private static final int VERSIONS = 3;
    private static final int WARM_UP_ROUNDS = 2;
    private static final int ROUNDS = 7;

    private VotePeBenchmark() {
    }

    public static void main(String[] args) {
        int inputs = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        OperatorRegistry registry = OperatorRegistry.of(List.of());
        Object config = registry.bindConfig("vote", JsonMapper.builder().build().readTree("{\"versions\": 3}"));
        KeyedProcessorDriver driver = new KeyedProcessorDriver(registry.require("vote"), config,
                new OperatorInfo("bench", "score", 0, 1), registry.codecs());
        long origin = VersionBallot.origin(0, 0, 0);
        long[] emitted = {0};
        List<Double> rates = new ArrayList<>();
        System.out.printf("Vote PE benchmark: %,d inputs of %d agreeing ballots over %,d keys per round%n", inputs,
                VERSIONS, keys);
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < inputs; i++) {
                long seq = (long) round * inputs + i;
                String key = "key-" + (seq % keys);
                for (int version = 0; version < VERSIONS; version++) {
                    driver.process(Event.of(key, new VersionBallot(origin, seq, version, List.of(seq)).toWire(), seq),
                            event -> emitted[0]++);
                }
            }
            double rate = inputs / ((System.nanoTime() - start) / 1e9);
            System.out.printf("round %d: %,.0f inputs/s%s%n", round + 1, rate,
                    round < WARM_UP_ROUNDS ? " (warm-up)" : "");
            if (round >= WARM_UP_ROUNDS) {
                rates.add(rate);
            }
        }
        if (emitted[0] != (long) ROUNDS * inputs) {
            throw new IllegalStateException("the vote emitted " + emitted[0] + " results for " + (long) ROUNDS * inputs
                    + " inputs");
        }
        rates.sort(Double::compare);
        double median = rates.get(rates.size() / 2);
        System.out.println();
        System.out.println("| figure | vote PE |");
        System.out.println("| --- | --- |");
        System.out.printf("| inputs voted per second, median of %d rounds | %,.0f |%n", rates.size(), median);
        System.out.printf("| cost per input (%d ballots) | %.2f µs |%n", VERSIONS, 1e6 / median);
    }
}
