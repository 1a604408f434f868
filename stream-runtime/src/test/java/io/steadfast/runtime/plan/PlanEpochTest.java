package io.steadfast.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class PlanEpochTest {

    private final ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
            {"id": "epochs", "operators": [
              {"id": "source", "type": "generator", "parallelism": 2},
              {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]}
            ]}"""));

    @Test
    void aChannelIdKeepsItsEpochThroughItsTextForm() {
        ChannelId first = new ChannelId(new TopologyId("t"), 4);
        ChannelId later = first.withEpoch(7);

        assertThat(first.toString()).isEqualTo("t~4");
        assertThat(later.toString()).isEqualTo("t~4@7");
        assertThat(ChannelId.parse("t~4@7")).isEqualTo(later);
        assertThat(ChannelId.parse("t~4")).isEqualTo(first);
        assertThat(later).isNotEqualTo(first);
    }

    @Test
    void aRedeployedPlanCarriesItsEpochOnEveryChannelAndEveryTask() {
        ExecutionPlan redeployed = plan.withEpoch(2);

        assertThat(plan.epoch()).isZero();
        assertThat(redeployed.epoch()).isEqualTo(2);
        assertThat(redeployed.channels()).allSatisfy(channel -> assertThat(channel.id().epoch()).isEqualTo(2));
        assertThat(redeployed.tasks()).allSatisfy(task -> {
            assertThat(task.inputs()).allSatisfy(in -> assertThat(in.channel().epoch()).isEqualTo(2));
            assertThat(task.outputs()).allSatisfy(out -> assertThat(out.channels())
                    .allSatisfy(channel -> assertThat(channel.epoch()).isEqualTo(2)));
        });
        assertThat(redeployed.channel(plan.channels().get(0).id())).isEmpty();
        assertThat(redeployed.channel(plan.channels().get(0).id().withEpoch(2))).isPresent();
    }

    @Test
    void aRedeployedPlanSurvivesJson() {
        JsonMapper mapper = JsonMapper.builder().build();
        ExecutionPlan redeployed = plan.withEpoch(5);

        ExecutionPlan read = mapper.readValue(mapper.writeValueAsString(redeployed), ExecutionPlan.class);

        assertThat(read.channels()).isEqualTo(redeployed.channels());
        assertThat(read.tasks()).isEqualTo(redeployed.tasks());
    }
}
