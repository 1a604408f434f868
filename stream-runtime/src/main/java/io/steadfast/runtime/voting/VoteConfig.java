package io.steadfast.runtime.voting;

import io.steadfast.api.operator.ConfigException;
import java.time.Duration;

/**
 * Config of the {@code vote} operator that the planner puts after the versions of an N-version operator: the count of
 * versions and the operator's {@code voting} settings, defaults filled in. The topology validator has checked them
 * with the spec; a host checks them again as it binds them, naming the field.
 *
 * @param versions      how many versions cast ballots (2 to 7)
 * @param strategy      spec name of the {@link VotingStrategy} (default majority)
 * @param quorum        the fewest agreeing versions that win (default a majority of the versions)
 * @param epsilon       how far apart two numbers may be and agree (default 0)
 * @param deadlineMs    how long a vote waits for the admitted versions after its first ballot (default 1,000)
 * @param onNoAgreement spec name of the {@link NoAgreementAction} (default drop-and-count)
 * @param exclusion     when versions are excluded and re-admitted; null for never
 */
public record VoteConfig(Integer versions, String strategy, Integer quorum, Double epsilon, Long deadlineMs,
                         String onNoAgreement, Exclusion exclusion) {

    static final int MAX_VERSIONS = 7;
    static final int DEFAULT_WINDOW = 100;

    public VoteConfig {
        if (versions == null || versions < 2 || versions > MAX_VERSIONS) {
            throw new ConfigException("versions", "versions must be 2.." + MAX_VERSIONS + ", was " + versions);
        }
        strategy = strategy == null ? VotingStrategy.MAJORITY.specName() : strategy;
        if (VotingStrategy.ofSpecName(strategy).isEmpty()) {
            throw new ConfigException("strategy", "strategy '" + strategy + "' is unknown; known: "
                    + VotingStrategy.specNames());
        }
        quorum = quorum == null ? versions / 2 + 1 : quorum;
        if (quorum < 1 || quorum > versions) {
            throw new ConfigException("quorum", "quorum must be 1.." + versions + ", was " + quorum);
        }
        epsilon = epsilon == null ? 0.0 : epsilon;
        deadlineMs = deadlineMs == null ? 1_000L : deadlineMs;
        if (deadlineMs < 1) {
            throw new ConfigException("deadlineMs", "deadlineMs must be at least 1, was " + deadlineMs);
        }
        onNoAgreement = onNoAgreement == null ? NoAgreementAction.DROP_AND_COUNT.specName() : onNoAgreement;
        if (NoAgreementAction.ofSpecName(onNoAgreement).isEmpty()) {
            throw new ConfigException("onNoAgreement", "onNoAgreement '" + onNoAgreement + "' is unknown; known: "
                    + NoAgreementAction.specNames());
        }
    }

    /** The rules the voting policy applies. */
    public VotingRules rules() {
        return new VotingRules(VotingStrategy.ofSpecName(strategy).orElseThrow(), quorum, epsilon,
                NoAgreementAction.ofSpecName(onNoAgreement).orElseThrow());
    }

    public Duration deadline() {
        return Duration.ofMillis(deadlineMs);
    }

    /** The window each version's recent outcomes are measured over, for weights and exclusion. */
    public int window() {
        return exclusion == null || exclusion.window() == null ? DEFAULT_WINDOW : exclusion.window();
    }

    /**
     * @param threshold the share of outvoted or late ballots over the window that excludes a version, in (0, 1]
     * @param window    how many of its latest votes the share is taken over (default 100)
     * @param probation how many votes in a row an excluded version must pass in shadow (default 100)
     */
    public record Exclusion(Double threshold, Integer window, Integer probation) {

        public Exclusion {
            if (threshold == null || !(threshold > 0 && threshold <= 1)) {
                throw new ConfigException("exclusion.threshold", "exclusion.threshold must be in (0, 1], was "
                        + threshold);
            }
            window = window == null ? DEFAULT_WINDOW : window;
            probation = probation == null ? DEFAULT_WINDOW : probation;
            if (window < 1 || probation < 1) {
                throw new ConfigException(window < 1 ? "exclusion.window" : "exclusion.probation",
                        "exclusion.window and exclusion.probation must be at least 1");
            }
        }
    }
}
