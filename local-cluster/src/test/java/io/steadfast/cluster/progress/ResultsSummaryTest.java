package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.OperatorResults;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

class ResultsSummaryTest {

    @Test
    void countsKeysTotalsNumbersAndShowsSamplesInNaturalOrder() {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (int k = 0; k < 12; k++) {
            values.put("key-" + k, JsonNodeFactory.instance.numberNode(k < 2 ? 101L : 100L));
        }

        String summary = ResultsSummary.format(
                new OperatorResults(new TopologyId("word-count"), new OperatorId("sink"), values), 3);

        assertThat(summary).isEqualToNormalizingNewlines("""
                results of word-count/sink: 12 keys, total 1,202
                  key-0 = 101
                  key-1 = 101
                  key-2 = 100
                  ... 9 more
                """);
    }

    @Test
    void omitsTotalForNonNumericValues() {
        Map<String, JsonNode> values = Map.of("a", JsonNodeFactory.instance.stringNode("x"));

        assertThat(ResultsSummary.format(new OperatorResults(new TopologyId("t"), new OperatorId("sink"), values), 5))
                .startsWith("results of t/sink: 1 keys\n")
                .doesNotContain("total");
    }

    @Test
    void ordersKeysWithNumbersNaturally() {
        assertThat(ResultsSummary.NATURAL_KEY_ORDER.compare("key-2", "key-10")).isNegative();
        assertThat(ResultsSummary.NATURAL_KEY_ORDER.compare("a", "b")).isNegative();
    }
}
