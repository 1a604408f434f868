package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.voting.NoAgreementAction;
import io.steadfast.runtime.voting.VotingRules;
import io.steadfast.runtime.voting.VotingStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** N-version operators in a spec: read from JSON, each malformed {@code versions}/{@code voting} named by its path. */
class VersionRulesTest {

    private final TopologySpecReader reader = new TopologySpecReader();
    private final TopologyValidator validator = new TopologyValidator(FakeOperatorCatalog.builtIns());

    /** A source, an N-version operator {@code score} with the given body, and a sink. */
    private TopologySpec spec(String scoreBody) {
        return reader.read("""
                {"id": "nv", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2},
                  {"id": "score", "parallelism": 2, "inputs": [{"from": "source"}], %s},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "score"}]}
                ]}""".formatted(scoreBody));
    }

    private List<String> problems(String scoreBody) {
        return validator.violationsOf(spec(scoreBody)).stream().map(v -> v.field() + ": " + v.message()).toList();
    }

    private static final String THREE_VERSIONS = """
            "versions": [{"type": "keyed-count"}, {"type": "window-sum", "config": {"windowMillis": 10}},
                         {"type": "keyed-count"}]""";

    @Test
    void aSpecWithVersionsAndVotingIsReadAndValid() {
        TopologySpec spec = spec(THREE_VERSIONS + """
                , "voting": {"strategy": "inexact-majority", "quorum": 2, "epsilon": 0.01, "deadlineMs": 250,
                             "onNoAgreement": "median", "exclusion": {"threshold": 0.2, "window": 50, "probation": 20}}""");

        assertThat(validator.violationsOf(spec)).isEmpty();
        OperatorSpec score = spec.operators().get(1);
        assertThat(score.isNVersion()).isTrue();
        assertThat(score.versions()).extracting(VersionSpec::type)
                .containsExactly("keyed-count", "window-sum", "keyed-count");
        assertThat(score.versions().get(1).config().get("windowMillis").asInt()).isEqualTo(10);
        assertThat(score.contractType()).isEqualTo("keyed-count");
        assertThat(score.taskCount()).as("2 subtasks × (3 versions + their votes)").isEqualTo(8);
        assertThat(score.voting().rules(3)).isEqualTo(new VotingRules(VotingStrategy.INEXACT_MAJORITY, 2, 0.01,
                NoAgreementAction.MEDIAN));
        assertThat(score.voting().deadline()).isEqualTo(Duration.ofMillis(250));
        assertThat(score.voting().exclusion()).isEqualTo(new ExclusionSpec(0.2, 50, 20));
    }

    @Test
    void votingLeftOutMeansAMajorityOfEqualValuesDroppingWhatDisagrees() {
        OperatorSpec score = spec(THREE_VERSIONS).operators().get(1);

        assertThat(validator.violationsOf(spec(THREE_VERSIONS))).isEmpty();
        assertThat(score.voting()).isNull();
        assertThat(VotingSpec.DEFAULTS.rules(3)).isEqualTo(VotingRules.majorityOf(3));
        assertThat(VotingSpec.DEFAULTS.deadline()).isEqualTo(VotingSpec.DEFAULT_DEADLINE);
    }

    @Test
    void everyMalformedVersionIsNamedByItsPath() {
        assertThat(problems("""
                "type": "keyed-count", "config": {"x": 1},
                "versions": [{"type": "no-such"}, {"config": {}}, {"type": "generator"}, {"type": "map",
                  "config": {"function": "f"}}, {"type": "window-sum"}, {"type": "keyed-count", "config": 5}]"""))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].type: type 'keyed-count' is set beside"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].config: config is set beside versions"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[0].type: versions[0].type 'no-such'"
                        + " is unknown"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[1].type: versions[1].type is missing"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[2].type: versions[2].type"
                        + " 'generator' is a source"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[4].type: versions[4].type"
                        + " 'window-sum' is keyed but versions[3].type 'map' is not keyed"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[4].config.windowMillis:"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions[5].config: versions[5].config must"
                        + " be a JSON object"));
    }

    @Test
    void oneVersionOrTooManyAreRefused() {
        assertThat(problems("\"versions\": [{\"type\": \"keyed-count\"}]"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions: versions has 1 entries; give 2..7"));
        String eight = String.join(", ", java.util.Collections.nCopies(8, "{\"type\": \"keyed-count\"}"));
        assertThat(problems("\"versions\": [" + eight + "]"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].versions: versions has 8 entries"));
    }

    @Test
    void everyMalformedVotingSettingIsNamedByItsPath() {
        assertThat(problems(THREE_VERSIONS + """
                , "voting": {"strategy": "plurality", "quorum": 4, "epsilon": -1, "deadlineMs": 0,
                             "onNoAgreement": "shrug", "exclusion": {"threshold": 1.5, "window": 0, "probation": -3}}"""))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.strategy: voting.strategy 'plurality'"
                        + " is unknown"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.quorum: voting.quorum 4 is out of"
                        + " range; give 1..3"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.epsilon: voting.epsilon -1.0 is not"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.deadlineMs: voting.deadlineMs 0 is out"
                        + " of range"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.onNoAgreement: voting.onNoAgreement"
                        + " 'shrug' is unknown"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.exclusion.threshold:"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.exclusion.window:"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting.exclusion.probation:"));
    }

    @Test
    void epsilonWithAnExactMajorityAndVotingWithoutVersionsAreRefused() {
        assertThat(problems(THREE_VERSIONS + ", \"voting\": {\"epsilon\": 0.1}"))
                .containsExactly("operators[1].voting.epsilon: voting.epsilon applies to inexact-majority, median and"
                        + " weighted; majority compares values for equality: remove epsilon or set voting.strategy");
        assertThat(problems("\"type\": \"keyed-count\", \"voting\": {\"quorum\": 2}"))
                .anySatisfy(p -> assertThat(p).startsWith("operators[1].voting: voting applies to an operator with"
                        + " versions"));
        assertThat(problems(THREE_VERSIONS + ", \"voting\": {\"exclusion\": {\"window\": 10}}"))
                .containsExactly("operators[1].voting.exclusion.threshold: voting.exclusion.threshold is missing;"
                        + " give the share of outvoted or late ballots, in (0, 1], that excludes a version (e.g. 0.2)");
    }

    @Test
    void versionsCountInTheTaskLimitAndTheirInputsInTheChannelBudget() {
        TopologyValidator strict = new TopologyValidator(FakeOperatorCatalog.builtIns(),
                new TopologyLimits(8, 8, 10, 4, 100_000, 12));

        List<Violation> violations = strict.violationsOf(spec(THREE_VERSIONS));
        assertThat(violations).anySatisfy(v -> assertThat(v.message()).contains("11 tasks in total"));
        assertThat(violations).anySatisfy(v -> assertThat(v.message())
                .contains("inputs[0] from 'source' makes 12 channels").contains("× its 3 versions"));
    }
}
