package io.steadfast.runtime.voting;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.IntToDoubleFunction;

/**
 * Arbitrates the ballots the versions of one N-version operator cast for one input. Pure: the verdict depends only on
 * the rules, the ballots (not their order) and the weights, so a vote replayed after a recovery decides the same.
 *
 * <ul>
 *   <li>{@link VotingStrategy#MAJORITY}, {@link VotingStrategy#INEXACT_MAJORITY} and {@link VotingStrategy#WEIGHTED}:
 *       each ballot's group is the ballots that agree with it ({@link ValueAgreement}, within {@code epsilon} except
 *       for MAJORITY). The ballot with the largest group (counted, or weighed for WEIGHTED) wins if its group has at
 *       least {@code quorum} versions; two ballots whose different groups are equally large (or heavy) are a tie, and
 *       a tie has no winner. The vote emits the winning ballot's values (the first in version order among ballots
 *       with the same group).</li>
 *   <li>{@link VotingStrategy#MEDIAN}: the ballots holding one number that is not NaN count; if at least
 *       {@code quorum} do, the vote emits their median (the lower middle one for an even count, so it is always a
 *       value some version gave); the versions within {@code epsilon} of it agreed.</li>
 * </ul>
 * Without a winner, {@link NoAgreementAction} decides: drop, emit the median of the numbers present, or fail.
 */
public final class VotingPolicy {

    private final VotingRules rules;

    public VotingPolicy(VotingRules rules) {
        this.rules = rules;
    }

    public VotingRules rules() {
        return rules;
    }

    /**
     * @param versions how many versions the operator has (ballots name versions {@code 0..versions-1})
     * @param ballots  at most one per version, in any order
     * @param weights  each version's current weight (finite, at least 0); read by {@link VotingStrategy#WEIGHTED} only
     * @throws IllegalArgumentException if a ballot names a version out of range, or two name the same one
     */
    public Verdict decide(int versions, List<Ballot> ballots, IntToDoubleFunction weights) {
        List<Ballot> sorted = inVersionOrder(versions, ballots);
        int voted = 0;
        for (Ballot ballot : sorted) {
            voted |= 1 << ballot.version();
        }
        int missing = (versions == VersionSet.CAPACITY ? -1 : (1 << versions) - 1) & ~voted;
        if (rules.strategy() == VotingStrategy.MEDIAN) {
            return numbers(sorted).size() >= rules.quorum() ? median(sorted, voted, missing, Verdict.Outcome.AGREED)
                    : noAgreement(sorted, voted, missing);
        }
        Group winner = largestGroup(sorted, weights);
        if (winner == null || Integer.bitCount(winner.members()) < rules.quorum()) {
            return noAgreement(sorted, voted, missing);
        }
        return verdict(Verdict.Outcome.AGREED, winner.ballot().values(), winner.members(), voted, missing);
    }

    /**
     * Whether {@code ballots} already fix the verdict whatever the admitted versions that have not voted send: a group
     * agreeing by {@link VotingStrategy#MAJORITY} holds a strict majority of the admitted versions, or by
     * {@link VotingStrategy#WEIGHTED} more than half their weight. With other strategies (where a later ballot may
     * join a group within epsilon, or move the median) a vote waits for every admitted version.
     *
     * @param admitted which versions take part in the vote
     */
    public boolean settled(int versions, List<Ballot> ballots, IntPredicate admitted, IntToDoubleFunction weights) {
        return settledVerdict(versions, ballots, admitted, weights) != null;
    }

    /**
     * The verdict of {@code ballots} if they already fix it ({@link #settled}), else null: what {@link #decide} would
     * say, for the price of one decision.
     */
    public Verdict settledVerdict(int versions, List<Ballot> ballots, IntPredicate admitted,
                                  IntToDoubleFunction weights) {
        if (rules.strategy() != VotingStrategy.MAJORITY && rules.strategy() != VotingStrategy.WEIGHTED) {
            return null;
        }
        Verdict verdict = decide(versions, ballots, weights);
        if (verdict.outcome() != Verdict.Outcome.AGREED) {
            return null;
        }
        int agreeingBits = VersionSet.copyOf(verdict.agreeing()).bits();
        double agreeing = 0;
        double total = 0;
        for (int version = 0; version < versions; version++) {
            if (admitted.test(version)) {
                double weight = rules.strategy() == VotingStrategy.WEIGHTED ? weights.applyAsDouble(version) : 1;
                total += weight;
                agreeing += (agreeingBits & 1 << version) != 0 ? weight : 0;
            }
        }
        return agreeing * 2 > total ? verdict : null;
    }

    /** Whether a ballot agrees with a vote's result, by the rules' tolerance. */
    public boolean agrees(Ballot ballot, List<Object> result) {
        return agrees(ballot.values(), result);
    }

    /** Whether a version's values for an input agree with the vote's result, by the rules' tolerance. */
    public boolean agrees(List<Object> values, List<Object> result) {
        return ValueAgreement.agree(values, result, rules.tolerance());
    }

    private static List<Ballot> inVersionOrder(int versions, List<Ballot> ballots) {
        if (versions > VersionSet.CAPACITY) {
            throw new IllegalArgumentException("An operator has at most " + VersionSet.CAPACITY + " versions, not "
                    + versions);
        }
        List<Ballot> sorted = new ArrayList<>(ballots);
        sorted.sort(Comparator.comparingInt(Ballot::version));
        for (int i = 0; i < sorted.size(); i++) {
            int version = sorted.get(i).version();
            if (version >= versions) {
                throw new IllegalArgumentException("A ballot names version " + version + " of an operator with "
                        + versions + " versions");
            }
            if (i > 0 && sorted.get(i - 1).version() == version) {
                throw new IllegalArgumentException("Version " + version + " cast two ballots for one input;"
                        + " its outputs for one input make one ballot");
            }
        }
        return sorted;
    }

    /** The ballot whose group is largest (heaviest), or null if there is none or a tie. */
    private Group largestGroup(List<Ballot> sorted, IntToDoubleFunction weights) {
        double tolerance = rules.tolerance();
        Group best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        boolean tie = false;
        for (Ballot ballot : sorted) {
            int members = 0;
            for (Ballot other : sorted) {
                if (other == ballot || ValueAgreement.agree(ballot, other, tolerance)) {
                    members |= 1 << other.version();
                }
            }
            double score = score(members, weights);
            if (score > bestScore) {
                best = new Group(ballot, members);
                bestScore = score;
                tie = false;
            } else if (score == bestScore && members != best.members()) {
                tie = true;
            }
        }
        return tie ? null : best;
    }

    private double score(int members, IntToDoubleFunction weights) {
        if (rules.strategy() != VotingStrategy.WEIGHTED) {
            return Integer.bitCount(members);
        }
        double sum = 0;
        for (int left = members; left != 0; left &= left - 1) {
            int version = Integer.numberOfTrailingZeros(left);
            double weight = weights.applyAsDouble(version);
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("The weight of version " + version + " must be a finite number"
                        + " of at least 0, was " + weight);
            }
            sum += weight;
        }
        return sum;
    }

    private Verdict noAgreement(List<Ballot> sorted, int voted, int missing) {
        return switch (rules.onNoAgreement()) {
            case DROP_AND_COUNT -> verdict(Verdict.Outcome.DROPPED, List.of(), 0, voted, missing);
            case FAIL -> verdict(Verdict.Outcome.FAILED, List.of(), 0, voted, missing);
            case MEDIAN -> numbers(sorted).isEmpty()
                    ? verdict(Verdict.Outcome.DROPPED, List.of(), 0, voted, missing)
                    : median(sorted, voted, missing, Verdict.Outcome.MEDIAN_OF_DISAGREEMENT);
        };
    }

    /** The median of the single-number ballots, assuming there is at least one. */
    private Verdict median(List<Ballot> sorted, int voted, int missing, Verdict.Outcome outcome) {
        List<Ballot> byValue = new ArrayList<>(numbers(sorted));
        byValue.sort(Comparator.comparingDouble(Ballot::singleNumber).thenComparingInt(Ballot::version));
        Ballot middle = byValue.get((byValue.size() - 1) / 2);
        int agreeing = 0;
        for (Ballot ballot : sorted) {
            if (ValueAgreement.agree(ballot, middle, rules.epsilon())) {
                agreeing |= 1 << ballot.version();
            }
        }
        return verdict(outcome, middle.values(), agreeing, voted, missing);
    }

    private static List<Ballot> numbers(List<Ballot> sorted) {
        return sorted.stream().filter(ballot -> ballot.singleNumber() != null && !ballot.singleNumber().isNaN())
                .toList();
    }

    /** A verdict whose outvoted versions are those that voted and do not agree. */
    private static Verdict verdict(Verdict.Outcome outcome, List<Object> values, int agreeing, int voted,
                                   int missing) {
        return new Verdict(outcome, values, VersionSet.ofBits(agreeing), VersionSet.ofBits(voted & ~agreeing),
                VersionSet.ofBits(missing));
    }

    /** A ballot and the versions (as bits) whose ballots agree with it. */
    private record Group(Ballot ballot, int members) {
    }
}
