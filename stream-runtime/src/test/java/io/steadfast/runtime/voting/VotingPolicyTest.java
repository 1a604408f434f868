package io.steadfast.runtime.voting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class VotingPolicyTest {

    private static final IntToDoubleFunction EQUAL_WEIGHTS = version -> 1.0;

    private static Verdict decide(VotingRules rules, int versions, Ballot... ballots) {
        return new VotingPolicy(rules).decide(versions, List.of(ballots), EQUAL_WEIGHTS);
    }

    private static VotingRules rules(VotingStrategy strategy, int quorum, double epsilon, NoAgreementAction action) {
        return new VotingRules(strategy, quorum, epsilon, action);
    }

    @Test
    void theMajorityOutvotesTheOddOneOut() {
        Verdict verdict = decide(VotingRules.majorityOf(3), 3, Ballot.of(0, 7L), Ballot.of(1, 8L), Ballot.of(2, 7L));

        assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.AGREED);
        assertThat(verdict.values()).containsExactly(7L);
        assertThat(verdict.agreeing()).containsExactly(0, 2);
        assertThat(verdict.outvoted()).containsExactly(1);
        assertThat(verdict.missing()).isEmpty();
    }

    @Test
    void twoEqualGroupsAreATieWithoutAWinner() {
        Verdict verdict = decide(rules(VotingStrategy.MAJORITY, 2, 0, NoAgreementAction.DROP_AND_COUNT), 4,
                Ballot.of(0, "a"), Ballot.of(1, "b"), Ballot.of(2, "a"), Ballot.of(3, "b"));

        assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.DROPPED);
        assertThat(verdict.values()).isEmpty();
        assertThat(verdict.outvoted()).containsExactly(0, 1, 2, 3);
        assertThat(verdict.emits()).isFalse();
    }

    @Test
    void versionsMissingAtTheDeadlineAreNamedAndTheOthersStillReachTheQuorum() {
        Verdict agreed = decide(VotingRules.majorityOf(3), 3, Ballot.of(2, 1.5), Ballot.of(0, 1.5));
        assertThat(agreed.outcome()).isEqualTo(Verdict.Outcome.AGREED);
        assertThat(agreed.missing()).containsExactly(1);

        Verdict alone = decide(VotingRules.majorityOf(3), 3, Ballot.of(1, 1.5));
        assertThat(alone.outcome()).as("one ballot of three is no quorum of two").isEqualTo(Verdict.Outcome.DROPPED);
        assertThat(alone.missing()).containsExactly(0, 2);
        assertThat(alone.outvoted()).containsExactly(1);
    }

    @Test
    void nanAgreesOnlyWithNanAndInfinitiesOnlyWithThemselves() {
        assertThat(decide(VotingRules.majorityOf(3), 3, Ballot.of(0, Double.NaN), Ballot.of(1, Double.NaN),
                Ballot.of(2, 1.0)).values()).containsExactly(Double.NaN);
        VotingRules inexact = rules(VotingStrategy.INEXACT_MAJORITY, 2, 1e300, NoAgreementAction.DROP_AND_COUNT);
        assertThat(decide(inexact, 3, Ballot.of(0, Double.POSITIVE_INFINITY), Ballot.of(1, Double.MAX_VALUE),
                Ballot.of(2, Double.NEGATIVE_INFINITY)).outcome())
                .as("an infinity is not within any epsilon of a finite number").isEqualTo(Verdict.Outcome.DROPPED);
        assertThat(decide(inexact, 3, Ballot.of(0, Double.POSITIVE_INFINITY), Ballot.of(1, 1.0),
                Ballot.of(2, Double.POSITIVE_INFINITY)).values()).containsExactly(Double.POSITIVE_INFINITY);
        assertThat(decide(inexact, 3, Ballot.of(0, Double.NaN), Ballot.of(1, 1.0), Ballot.of(2, 2.0)).agreeing())
                .containsExactly(1, 2);
    }

    @Test
    void epsilonIsInclusiveAndNotOneUlpMore() {
        VotingRules rules = rules(VotingStrategy.INEXACT_MAJORITY, 2, 0.5, NoAgreementAction.DROP_AND_COUNT);

        assertThat(decide(rules, 2, Ballot.of(0, 1.0), Ballot.of(1, 1.5)).outcome()).isEqualTo(Verdict.Outcome.AGREED);
        assertThat(decide(rules, 2, Ballot.of(0, 1.0), Ballot.of(1, Math.nextUp(1.5))).outcome())
                .isEqualTo(Verdict.Outcome.DROPPED);
        assertThat(decide(VotingRules.majorityOf(2), 2, Ballot.of(0, 1.0), Ballot.of(1, Math.nextUp(1.0)))
                .outcome()).as("majority wants equal numbers").isEqualTo(Verdict.Outcome.DROPPED);
    }

    @Test
    void numbersAreComparedByValueNotByType() {
        assertThat(decide(VotingRules.majorityOf(2), 2, Ballot.of(0, 1L), Ballot.of(1, 1.0)).outcome())
                .isEqualTo(Verdict.Outcome.AGREED);
        assertThat(decide(VotingRules.majorityOf(2), 2, Ballot.of(0, 0.0), Ballot.of(1, -0.0)).outcome())
                .isEqualTo(Verdict.Outcome.AGREED);
        long big = 1L << 53;
        assertThat(decide(VotingRules.majorityOf(2), 2, Ballot.of(0, big), Ballot.of(1, big + 1)).outcome())
                .as("longs are not rounded to doubles").isEqualTo(Verdict.Outcome.DROPPED);
    }

    @Test
    void aVersionThatEmitsTwiceForOneInputIsOutvoted() {
        Verdict verdict = decide(VotingRules.majorityOf(3), 3, Ballot.of(0, "x"), Ballot.of(1, "x", "x"),
                Ballot.of(2, "x"));

        assertThat(verdict.values()).containsExactly("x");
        assertThat(verdict.outvoted()).containsExactly(1);
    }

    @Test
    void versionsThatEmitNothingForAnInputAgreeOnNothing() {
        Verdict verdict = decide(VotingRules.majorityOf(3), 3, Ballot.of(0), Ballot.of(1), Ballot.of(2, "spurious"));

        assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.AGREED);
        assertThat(verdict.values()).isEmpty();
        assertThat(verdict.outvoted()).containsExactly(2);
    }

    @Test
    void weightsBreakWhatCountsCannot() {
        VotingRules rules = rules(VotingStrategy.WEIGHTED, 1, 0, NoAgreementAction.DROP_AND_COUNT);
        List<Ballot> ballots = List.of(Ballot.of(0, "a"), Ballot.of(1, "a"), Ballot.of(2, "b"));
        VotingPolicy policy = new VotingPolicy(rules);

        assertThat(policy.decide(3, ballots, version -> version == 2 ? 2.0 : 1.0).outcome())
                .as("equal weights of the two groups are a tie").isEqualTo(Verdict.Outcome.DROPPED);
        assertThat(policy.decide(3, ballots, version -> version == 2 ? 2.5 : 1.0).values()).containsExactly("b");
        assertThat(policy.decide(3, ballots, version -> version == 2 ? 0.5 : 1.0).values()).containsExactly("a");
        assertThatThrownBy(() -> policy.decide(3, ballots, version -> Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight of version");
    }

    @Test
    void withoutAgreementTheRulesDropEmitTheMedianOrFail() {
        Ballot[] spread = {Ballot.of(0, 3.0), Ballot.of(1, 1.0), Ballot.of(2, 2.0)};

        Verdict median = decide(rules(VotingStrategy.MAJORITY, 2, 0, NoAgreementAction.MEDIAN), 3, spread);
        assertThat(median.outcome()).isEqualTo(Verdict.Outcome.MEDIAN_OF_DISAGREEMENT);
        assertThat(median.values()).containsExactly(2.0);
        assertThat(median.agreeing()).containsExactly(2);
        assertThat(decide(rules(VotingStrategy.MAJORITY, 2, 0, NoAgreementAction.FAIL), 3, spread).outcome())
                .isEqualTo(Verdict.Outcome.FAILED);
        assertThat(decide(rules(VotingStrategy.MAJORITY, 2, 0, NoAgreementAction.MEDIAN), 3, Ballot.of(0, "a"),
                Ballot.of(1, "b")).outcome()).as("no number to take the median of").isEqualTo(Verdict.Outcome.DROPPED);
    }

    @Test
    void theMedianStrategyTakesTheMiddleNumberAndCountsThoseNearIt() {
        VotingRules rules = rules(VotingStrategy.MEDIAN, 2, 0.2, NoAgreementAction.DROP_AND_COUNT);

        Verdict verdict = decide(rules, 4, Ballot.of(0, 1.0), Ballot.of(1, 100.0), Ballot.of(2, 1.1),
                Ballot.of(3, Double.NaN));
        assertThat(verdict.values()).as("NaN takes no part").containsExactly(1.1);
        assertThat(verdict.agreeing()).containsExactly(0, 2);
        assertThat(verdict.outvoted()).containsExactly(1, 3);
        assertThat(decide(rules, 4, Ballot.of(0, 4L), Ballot.of(1, 1L), Ballot.of(2, 3L), Ballot.of(3, 2L)).values())
                .as("the lower middle of an even count").containsExactly(2L);
        assertThat(decide(rules, 3, Ballot.of(0, 1.0), Ballot.of(1, "text")).outcome())
                .as("one number is no quorum of two").isEqualTo(Verdict.Outcome.DROPPED);
    }

    @Test
    void structuredValuesAgreeFieldByField() {
        VotingRules rules = rules(VotingStrategy.INEXACT_MAJORITY, 2, 0.01, NoAgreementAction.DROP_AND_COUNT);

        Verdict verdict = decide(rules, 3, Ballot.of(0, Map.of("score", 0.500, "id", "a")),
                Ballot.of(1, Map.of("score", 0.505, "id", "a")), Ballot.of(2, Map.of("score", 0.505, "id", "b")));
        assertThat(verdict.agreeing()).containsExactly(0, 1);
        assertThat(verdict.values()).containsExactly(Map.of("score", 0.500, "id", "a"));
    }

    @Test
    void aBallotOutOfRangeOrTwoOfOneVersionAreRefused() {
        VotingPolicy policy = new VotingPolicy(VotingRules.majorityOf(3));

        assertThatThrownBy(() -> policy.decide(3, List.of(Ballot.of(3, 1L)), EQUAL_WEIGHTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 3");
        assertThatThrownBy(() -> policy.decide(3, List.of(Ballot.of(1, 1L), Ballot.of(1, 2L)), EQUAL_WEIGHTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two ballots");
        assertThatThrownBy(() -> new VotingRules(VotingStrategy.MAJORITY, 0, 0, NoAgreementAction.FAIL))
                .hasMessageContaining("quorum");
        assertThatThrownBy(() -> new VotingRules(VotingStrategy.MAJORITY, 1, Double.NaN, NoAgreementAction.FAIL))
                .hasMessageContaining("epsilon");
    }
}
