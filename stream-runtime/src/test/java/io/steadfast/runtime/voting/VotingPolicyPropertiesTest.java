package io.steadfast.runtime.voting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Properties of every vote, over random ballots, rules and weights. */
class VotingPolicyPropertiesTest {

    /** A few values only, so that ballots often agree; NaN, infinities, both zeros and an empty ballot among them. */
    private static final List<List<Object>> VALUES = List.of(List.of(1.0), List.of(1.25), List.of(2L),
            List.of(Double.NaN), List.of(Double.POSITIVE_INFINITY), List.of(Double.NEGATIVE_INFINITY), List.of(0.0),
            List.of(-0.0), List.of(), List.of("x"), List.of(1.0, 1.0));

    record Vote(VotingRules rules, int versions, List<Ballot> ballots, List<Double> weights) {

        Verdict decide(List<Ballot> inOrder) {
            return new VotingPolicy(rules).decide(versions, inOrder, weights::get);
        }
    }

    @Provide
    Arbitrary<Vote> votes() {
        Arbitrary<VotingRules> rules = Combinators.combine(Arbitraries.of(VotingStrategy.class),
                        Arbitraries.integers().between(1, 4), Arbitraries.of(0.0, 0.25, 1.0, 10.0),
                        Arbitraries.of(NoAgreementAction.class))
                .as(VotingRules::new);
        return Combinators.combine(rules, Arbitraries.integers().between(1, 6), Arbitraries.longs())
                .as((r, versions, seed) -> {
                    Random random = new Random(seed);
                    List<Ballot> ballots = new ArrayList<>();
                    List<Double> weights = new ArrayList<>();
                    for (int version = 0; version < versions; version++) {
                        weights.add(random.nextInt(4) / 2.0);
                        if (random.nextInt(5) > 0) { // now and then a version misses the deadline
                            ballots.add(new Ballot(version, VALUES.get(random.nextInt(VALUES.size()))));
                        }
                    }
                    return new Vote(r, versions, ballots, weights);
                });
    }

    @Property(tries = 2000)
    void theOrderOfTheBallotsDoesNotMatter(@ForAll("votes") Vote vote, @ForAll long seed) {
        List<Ballot> shuffled = new ArrayList<>(vote.ballots());
        Collections.shuffle(shuffled, new Random(seed));

        assertThat(vote.decide(shuffled)).isEqualTo(vote.decide(vote.ballots()));
    }

    @Property(tries = 2000)
    void everyVersionIsAgreeingOutvotedOrMissingOnce(@ForAll("votes") Vote vote) {
        Verdict verdict = vote.decide(vote.ballots());

        Set<Integer> all = new TreeSet<>();
        all.addAll(verdict.agreeing());
        all.addAll(verdict.outvoted());
        all.addAll(verdict.missing());
        assertThat(all).hasSize(vote.versions());
        assertThat(verdict.agreeing().size() + verdict.outvoted().size() + verdict.missing().size())
                .isEqualTo(vote.versions());
        assertThat(verdict.missing()).hasSize(vote.versions() - vote.ballots().size());
    }

    @Property(tries = 2000)
    void whatAVoteEmitsIsWhatSomeVersionGave(@ForAll("votes") Vote vote) {
        Verdict verdict = vote.decide(vote.ballots());

        if (verdict.emits()) {
            assertThat(vote.ballots()).extracting(Ballot::values).contains(verdict.values());
        } else {
            assertThat(verdict.values()).isEmpty();
            assertThat(verdict.agreeing()).isEmpty();
        }
        if (verdict.outcome() == Verdict.Outcome.AGREED && vote.rules().strategy() != VotingStrategy.MEDIAN) {
            assertThat(verdict.agreeing()).hasSizeGreaterThanOrEqualTo(vote.rules().quorum());
        }
    }

    @Property(tries = 1000)
    void aStrictMajorityOfEqualBallotsWinsAMajorityVote(@ForAll @IntRange(min = 1, max = 7) int versions,
                                                        @ForAll long seed) {
        Random random = new Random(seed);
        int agreeing = versions / 2 + 1;
        List<Ballot> ballots = new ArrayList<>();
        for (int version = 0; version < versions; version++) {
            List<Object> values = version < agreeing ? List.of("right") : List.of("wrong-" + random.nextInt(2));
            ballots.add(new Ballot(version, values));
        }
        Collections.shuffle(ballots, random);

        Verdict verdict = new VotingPolicy(VotingRules.majorityOf(versions)).decide(versions, ballots, v -> 1.0);
        assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.AGREED);
        assertThat(verdict.values()).containsExactly("right");
        assertThat(verdict.outvoted()).hasSize(versions - agreeing);
    }

    @Property(tries = 1000)
    void twoFiniteNumbersAgreeExactlyWhenNoFartherApartThanEpsilon(
            @ForAll @DoubleRange(min = -1e6, max = 1e6) double a, @ForAll @DoubleRange(min = -10, max = 10) double d,
            @ForAll @DoubleRange(min = 0, max = 10) double epsilon) {
        double b = a + d;
        VotingRules rules = new VotingRules(VotingStrategy.INEXACT_MAJORITY, 2, epsilon,
                NoAgreementAction.DROP_AND_COUNT);

        Verdict verdict = new VotingPolicy(rules).decide(2, List.of(Ballot.of(0, a), Ballot.of(1, b)), v -> 1.0);
        assertThat(verdict.outcome() == Verdict.Outcome.AGREED).isEqualTo(Math.abs(a - b) <= epsilon);
    }

    @Property(tries = 1000)
    void theMedianLiesBetweenTheSmallestAndLargestNumber(
            @ForAll("finiteNumbers") List<Double> numbers) {
        List<Ballot> ballots = new ArrayList<>();
        for (int version = 0; version < numbers.size(); version++) {
            ballots.add(Ballot.of(version, numbers.get(version)));
        }
        VotingRules rules = new VotingRules(VotingStrategy.MEDIAN, 1, 0, NoAgreementAction.DROP_AND_COUNT);

        Verdict verdict = new VotingPolicy(rules).decide(numbers.size(), ballots, v -> 1.0);
        double median = (Double) verdict.values().get(0);
        assertThat(median).isBetween(Collections.min(numbers), Collections.max(numbers));
        long below = numbers.stream().filter(n -> n < median).count();
        long above = numbers.stream().filter(n -> n > median).count();
        assertThat(below).isLessThanOrEqualTo(numbers.size() / 2);
        assertThat(above).isLessThanOrEqualTo(numbers.size() / 2);
    }

    @Provide
    Arbitrary<List<Double>> finiteNumbers() {
        return Arbitraries.doubles().between(-1e9, 1e9).list().ofMinSize(1).ofMaxSize(9);
    }
}
