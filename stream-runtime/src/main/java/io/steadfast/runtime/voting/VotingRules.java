package io.steadfast.runtime.voting;

import java.util.Objects;

/**
 * The rules of one N-version operator's votes.
 *
 * @param quorum        the fewest versions that must agree for their output to win (at least 1)
 * @param epsilon       how far apart two numbers may be and still agree (0 for {@link VotingStrategy#MAJORITY}:
 *                      numerically equal; finite, at least 0)
 * @param onNoAgreement what a vote without a winning group does
 */
public record VotingRules(VotingStrategy strategy, int quorum, double epsilon, NoAgreementAction onNoAgreement) {

    public VotingRules {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(onNoAgreement, "onNoAgreement");
        if (quorum < 1) {
            throw new IllegalArgumentException("quorum must be at least 1, was " + quorum);
        }
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a finite number of at least 0, was " + epsilon);
        }
    }

    /** The usual rules for {@code versions} versions: a strict majority of equal outputs, drop and count otherwise. */
    public static VotingRules majorityOf(int versions) {
        return new VotingRules(VotingStrategy.MAJORITY, versions / 2 + 1, 0, NoAgreementAction.DROP_AND_COUNT);
    }

    /** How far apart two numbers may be and agree under these rules. */
    double tolerance() {
        return strategy == VotingStrategy.MAJORITY ? 0 : epsilon;
    }
}
