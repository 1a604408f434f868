package io.steadfast.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Which kind of host each task of a plan needs: voters for the vote tasks, PE hosts for the rest. */
class TaskHostKindTest {

    private static final OperatorId SCORE = new OperatorId("score");

    private final ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
            {"id": "kinds", "operators": [
              {"id": "source", "type": "generator"},
              {"id": "score", "parallelism": 2, "inputs": [{"from": "source"}],
               "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
            ]}"""));

    @Test
    void voteTasksNeedAVoterAndEveryOtherTaskAPeHost() {
        assertThat(plan.tasks()).filteredOn(TaskSpec::isVote).extracting(task -> task.id().operator())
                .containsExactly(SCORE, SCORE);
        assertThat(plan.tasks()).filteredOn(TaskSpec::isVote).extracting(TaskSpec::hostKind)
                .containsOnly(HostKind.VOTER);
        assertThat(plan.tasks()).filteredOn(task -> !task.isVote()).hasSize(6).extracting(TaskSpec::hostKind)
                .containsOnly(HostKind.PE);
    }

    @Test
    void aVersionNamesTheOperatorItIsAVersionOf() {
        assertThat(SCORE.version(1).versionedOperator()).isEqualTo(SCORE);
        assertThatThrownBy(SCORE::versionedOperator).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("score is no version");
    }

    @Test
    void whetherATaskVotesIsNoMemberOfThePlansJson() {
        JsonMapper json = JsonMapper.builder().build();
        String written = json.writeValueAsString(plan);

        assertThat(written).doesNotContain("\"vote\":");
        assertThat(json.readValue(written, ExecutionPlan.class)).isEqualTo(plan);
    }
}
