package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.PlanExpander;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelBudgetTest {

    @Test
    void countsFromTheSpecTheChannelsThePlanExpanderMakes() {
        TopologySpec spec = Specs.topology("t").op("left", "generator", 3).op("right", "generator", 2)
                .opWith("join", "map", 5, "{'function': 'identity'}", InputSpec.byKey("left"),
                        new InputSpec("right", Partitioning.BROADCAST))
                .opWith("count", "keyed-count", 4, "{}", InputSpec.byKey("join"))
                .op("sink", "latest-value-sink", 1, "count").build();

        long counted = new ChannelBudget(spec, TopologyLimits.defaults()).total();

        assertThat(counted).isEqualTo(3 * 5 + 2 * 5 + 5 * 4 + 4 * 1)
                .isEqualTo(PlanExpander.expand(spec).channels().size());
    }

    @Test
    void countsNoChannelsForInputsThatNameNoOperator() {
        TopologySpec spec = Specs.topology("t").op("source", "generator", 4).op("sink", "log-sink", 4, "source", "nope")
                .build();

        assertThat(new ChannelBudget(spec, TopologyLimits.defaults()).total()).isEqualTo(16);
    }

    @Test
    void doesNotOverflowOnParallelismFarOutOfRange() {
        Specs specs = Specs.topology("t").op("source", "generator", Integer.MAX_VALUE);
        for (int i = 0; i < 4; i++) {
            specs.op("sink" + i, "log-sink", Integer.MAX_VALUE, "source");
        }
        List<Violation> violations = new java.util.ArrayList<>();

        new ChannelBudget(specs.build(), TopologyLimits.defaults()).check(violations);

        assertThat(violations).extracting(Violation::operator).containsExactly("sink0", "sink1", "sink2", "sink3");
        assertThat(violations).allSatisfy(v -> assertThat(v.message())
                .contains("makes 4611686014132420609 channels").contains("over the limit of 65536"));
    }
}
