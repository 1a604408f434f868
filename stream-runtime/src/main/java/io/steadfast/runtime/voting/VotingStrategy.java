package io.steadfast.runtime.voting;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** How the versions' outputs for one input are arbitrated; the spec's {@code voting.strategy}. */
public enum VotingStrategy {
    /** The largest group of versions with equal outputs wins, if it has a quorum. */
    MAJORITY("majority"),
    /** As {@link #MAJORITY}, numbers within {@code epsilon} of each other counting as equal. */
    INEXACT_MAJORITY("inexact-majority"),
    /** The median of the versions' single numeric outputs, if a quorum gave one. */
    MEDIAN("median"),
    /** As {@link #INEXACT_MAJORITY}, groups weighed by each version's recent agreement instead of counted. */
    WEIGHTED("weighted");

    private final String specName;

    VotingStrategy(String specName) {
        this.specName = specName;
    }

    /** The name the spec uses. */
    public String specName() {
        return specName;
    }

    /** The spec names of every value, in declaration order. */
    public static List<String> specNames() {
        return Arrays.stream(values()).map(VotingStrategy::specName).toList();
    }

    /** The value the spec names {@code name} (any case), if any. */
    public static Optional<VotingStrategy> ofSpecName(String name) {
        return Arrays.stream(values()).filter(value -> value.specName.equalsIgnoreCase(name)).findFirst();
    }
}
