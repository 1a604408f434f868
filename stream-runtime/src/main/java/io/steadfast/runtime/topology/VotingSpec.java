package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.steadfast.runtime.voting.NoAgreementAction;
import io.steadfast.runtime.voting.VotingRules;
import io.steadfast.runtime.voting.VotingStrategy;
import java.time.Duration;

/**
 * How the versions of an N-version operator are voted on, its optional {@code "voting"} section:
 * {@code {"strategy": "majority", "quorum": 2, "deadlineMs": 200, "onNoAgreement": "drop-and-count",
 * "exclusion": {...}}}. A field left out takes its default (see {@link VersionRules}); values are kept raw so that
 * {@link VersionRules} reports every problem at once.
 *
 * @param strategy      {@code majority}, {@code inexact-majority}, {@code median} or {@code weighted}
 * @param quorum        the fewest versions that must agree
 * @param epsilon       how far apart two numbers may be and agree (not for {@code majority})
 * @param deadlineMs    how long a vote waits for the versions' outputs for one input after the first arrived
 * @param onNoAgreement {@code drop-and-count}, {@code median} or {@code fail}
 * @param exclusion     when a version is excluded and re-admitted; null for never
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VotingSpec(String strategy, Integer quorum, Double epsilon, Long deadlineMs, String onNoAgreement,
                         ExclusionSpec exclusion) {

    /** No section: every setting is its default. */
    public static final VotingSpec DEFAULTS = new VotingSpec(null, null, null, null, null, null);

    /** How long a vote waits for late versions when the spec does not say. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(1);

    @JsonCreator
    static VotingSpec fromJson(@JsonProperty("strategy") String strategy, @JsonProperty("quorum") Integer quorum,
                               @JsonProperty("epsilon") Double epsilon, @JsonProperty("deadlineMs") Long deadlineMs,
                               @JsonProperty("onNoAgreement") String onNoAgreement,
                               @JsonProperty("exclusion") ExclusionSpec exclusion) {
        return new VotingSpec(strategy, quorum, epsilon, deadlineMs, onNoAgreement, exclusion);
    }

    /**
     * The rules of the operator's votes, defaults filled in (a majority of equal values, or else drop and count); use
     * after validation.
     */
    public VotingRules rules(int versions) {
        VotingStrategy chosen = strategy == null ? VotingStrategy.MAJORITY
                : VotingStrategy.ofSpecName(strategy).orElseThrow();
        NoAgreementAction action = onNoAgreement == null ? NoAgreementAction.DROP_AND_COUNT
                : NoAgreementAction.ofSpecName(onNoAgreement).orElseThrow();
        return new VotingRules(chosen, quorum == null ? versions / 2 + 1 : quorum, epsilon == null ? 0 : epsilon,
                action);
    }

    /** How long a vote waits for late versions; use after validation. */
    @JsonIgnore
    public Duration deadline() {
        return deadlineMs == null ? DEFAULT_DEADLINE : Duration.ofMillis(deadlineMs);
    }
}
