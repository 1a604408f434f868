package io.steadfast.runtime.voting;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import java.util.List;

public class VotePeSpeedCheck {
    public static void main(String[] args) {
        OperatorRegistry registry = OperatorRegistry.of(List.of());
        Object config = registry.bindConfig("vote", tools.jackson.databind.json.JsonMapper.builder().build()
                .readTree("{\"versions\": 3}"));
        KeyedProcessorDriver driver = new KeyedProcessorDriver(registry.require("vote"), config,
                new OperatorInfo("t", "score", 0, 1), registry.codecs());
        long[] emitted = {0};
        for (int round = 0; round < 5; round++) {
            long start = System.nanoTime();
            int n = 300_000;
            for (int i = 0; i < n; i++) {
                long seq = (long) round * n + i;
                String key = "key-" + (seq % 10_000);
                for (int v = 0; v < 3; v++) {
                    driver.process(Event.of(key, new VersionBallot("source#0>0@0", seq, v, List.of(seq)).toWire(),
                            seq), event -> emitted[0]++);
                }
            }
            System.out.printf("round %d: %.0f inputs/s, emitted %d%n", round, n / ((System.nanoTime() - start) / 1e9),
                    emitted[0]);
        }
    }
}
