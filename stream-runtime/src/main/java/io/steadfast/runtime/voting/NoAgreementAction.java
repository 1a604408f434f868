package io.steadfast.runtime.voting;

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
}
