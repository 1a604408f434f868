package io.steadfast.runtime.voting;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What a vote does when no group of versions reaches the quorum; the spec's {@code voting.onNoAgreement}. */
public enum NoAgreementAction {
    /** Emit nothing for the input and count it. */
    DROP_AND_COUNT("drop-and-count"),
    /** Emit the median of the versions' single numeric outputs, if there are any; else drop and count. */
    MEDIAN("median"),
    /** Fail the vote task: the job must not go on without an agreed result. */
    FAIL("fail");

    private final String specName;

    NoAgreementAction(String specName) {
        this.specName = specName;
    }

    /** The name the spec uses. */
    public String specName() {
        return specName;
    }

    /** The spec names of every value, in declaration order. */
    public static List<String> specNames() {
        return Arrays.stream(values()).map(NoAgreementAction::specName).toList();
    }

    /** The value the spec names {@code name} (any case), if any. */
    public static Optional<NoAgreementAction> ofSpecName(String name) {
        return Arrays.stream(values()).filter(value -> value.specName.equalsIgnoreCase(name)).findFirst();
    }
}
