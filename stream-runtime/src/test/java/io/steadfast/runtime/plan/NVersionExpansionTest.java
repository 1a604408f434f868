package io.steadfast.runtime.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.Partitioning;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An N-version operator in the plan: its versions read its inputs, a vote operator of its id reads its versions. */
class NVersionExpansionTest {

    private static final TopologyId T = new TopologyId("nv");
    private static final OperatorId SCORE = new OperatorId("score");

    private static final TopologySpec SPEC = new TopologySpecReader().read("""
            {"id": "nv", "operators": [
              {"id": "source", "type": "generator", "parallelism": 2},
              {"id": "score", "parallelism": 2, "inputs": [{"from": "source"}],
               "versions": [{"type": "keyed-count"}, {"type": "keyed-digest", "config": {"a": 1}},
                            {"type": "keyed-count"}],
               "voting": {"strategy": "inexact-majority", "epsilon": 0.5, "deadlineMs": 300}},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
            ]}""");

    private static TaskId task(OperatorId operator, int subtask) {
        return new TaskId(T, operator, subtask);
    }

    private final ExecutionPlan plan = PlanExpander.expand(SPEC);

    @Test
    void everyVersionRunsAtTheOperatorsParallelismAndReadsItsInputs() {
        for (int version = 0; version < 3; version++) {
            OperatorId id = SCORE.version(version);
            for (int subtask = 0; subtask < 2; subtask++) {
                TaskSpec task = plan.task(task(id, subtask)).orElseThrow();
                assertThat(task.type()).isEqualTo(version == 1 ? "keyed-digest" : "keyed-count");
                assertThat(task.inputs()).extracting(InputChannel::from)
                        .containsExactly(task(new OperatorId("source"), 0), task(new OperatorId("source"), 1));
            }
        }
        assertThat(plan.task(task(SCORE.version(1), 0)).orElseThrow().config().get("a").asInt()).isEqualTo(1);
        TaskSpec source = plan.task(task(new OperatorId("source"), 0)).orElseThrow();
        assertThat(source.outputs()).extracting(OutputEdge::to)
                .containsExactly(SCORE.version(0), SCORE.version(1), SCORE.version(2));
        assertThat(source.outputs()).extracting(OutputEdge::partitioning).containsOnly(Partitioning.KEY);
    }

    @Test
    void aVoteOperatorKeepsTheOperatorsIdAndReadsEveryVersionByKey() {
        for (int subtask = 0; subtask < 2; subtask++) {
            TaskSpec vote = plan.task(task(SCORE, subtask)).orElseThrow();
            assertThat(vote.type()).isEqualTo(NVersionExpansion.VOTE_TYPE);
            assertThat(vote.inputs()).hasSize(6);
            assertThat(vote.inputs()).extracting(input -> input.from().operator()).containsOnly(
                    SCORE.version(0), SCORE.version(1), SCORE.version(2));
            assertThat(vote.config().get("versions").asInt()).isEqualTo(3);
            assertThat(vote.config().get("strategy").asString()).isEqualTo("inexact-majority");
            assertThat(vote.config().get("epsilon").asDouble()).isEqualTo(0.5);
            assertThat(vote.config().get("deadlineMs").asLong()).isEqualTo(300);
        }
        assertThat(plan.task(task(new OperatorId("sink"), 0)).orElseThrow().inputs())
                .extracting(input -> input.from().operator()).containsOnly(SCORE);
    }

    @Test
    void theTaskIdsOfVersionsReadBack() {
        TaskId version = task(SCORE.version(2), 1);

        assertThat(version.toString()).isEqualTo("nv/score~v2#1");
        assertThat(TaskId.parse("nv/score~v2#1")).isEqualTo(version);
        assertThat(version.operator().isVersion()).isTrue();
        assertThat(version.operator().versionIndex()).isEqualTo(2);
        assertThat(OperatorId.isWritable("score~v2")).as("no spec may name a version").isFalse();
        assertThat(plan.tasks()).hasSize(2 + 6 + 2 + 1);
    }

    @Test
    void aSpecWithoutVersionsIsExpandedAsBefore() {
        TopologySpec plain = new TopologySpecReader().read("""
                {"id": "nv", "operators": [{"id": "source", "type": "generator"},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}]}""");

        assertThat(NVersionExpansion.of(plain)).isSameAs(plain);
        assertThat(PlanExpander.expand(plain).tasks()).extracting(TaskSpec::id)
                .containsExactly(task(new OperatorId("source"), 0), task(new OperatorId("sink"), 0));
    }

    @Test
    void votingLeftOutGivesTheVoteOnlyTheCountOfVersions() {
        TopologySpec spec = new TopologySpecReader().read("""
                {"id": "nv", "operators": [{"id": "source", "type": "generator"},
                  {"id": "score", "inputs": [{"from": "source"}],
                   "versions": [{"type": "keyed-count"}, {"type": "keyed-count"}]}]}""");

        TaskSpec vote = PlanExpander.expand(spec).task(task(SCORE, 0)).orElseThrow();
        assertThat(List.copyOf(vote.config().propertyNames())).containsExactly("versions");
    }
}
