package io.steadfast.runtime.topology;

import io.steadfast.api.operator.OperatorRole;
import io.steadfast.runtime.voting.NoAgreementAction;
import io.steadfast.runtime.voting.VotingStrategy;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rules of an N-version operator's {@code "versions"} and {@code "voting"}: two to {@value #MAX_VERSIONS}
 * versions, each a known processor type with a config it accepts, all keyed alike (they share the operator's inputs);
 * no type or config of the operator's own; voting settings in range. Reports every problem with its JSON path.
 */
final class VersionRules {

    /** More versions than this multiply the work for little more masking: five tolerate two faulty versions. */
    static final int MAX_VERSIONS = 7;
    /** A vote holds every later input of its subtask while it waits: a minute of that is already a stalled job. */
    static final long MAX_DEADLINE_MS = 60_000;
    /** The longest window or probation, in votes: each version's recent outcomes are kept as keyed state. */
    static final int MAX_WINDOW = 100_000;


    private final OperatorCatalog catalog;
    private final TypeAndConfigCheck typeAndConfig;

    VersionRules(OperatorCatalog catalog, TypeAndConfigCheck typeAndConfig) {
        this.catalog = catalog;
        this.typeAndConfig = typeAndConfig;
    }

    void check(int index, OperatorSpec operator, List<Violation> violations) {
        Reporter report = new Reporter(index, operator.id(), violations);
        if (operator.type() != null) {
            report.add("type", "type '" + operator.type() + "' is set beside versions; an operator with versions has"
                    + " no type of its own: give each version its type in versions[j].type");
        }
        if (!operator.config().isEmpty()) {
            report.add("config", "config is set beside versions; give each version its config in versions[j].config");
        }
        List<VersionSpec> versions = operator.versions();
        if (versions.size() < 2 || versions.size() > MAX_VERSIONS) {
            report.add("versions", "versions has " + versions.size() + " entries; give 2.." + MAX_VERSIONS
                    + " (three mask one faulty version by majority), or write one version as a plain operator");
        }
        int baseline = -1; // the first processor version: the others must be keyed as it is
        for (int j = 0; j < versions.size(); j++) {
            VersionSpec version = versions.get(j);
            String prefix = "versions[" + j + "].";
            Optional<OperatorRole> role = typeAndConfig.check(index, operator.id(), prefix, version.type(),
                    version.config(), violations);
            if (role.isEmpty()) {
                continue;
            }
            if (role.get() != OperatorRole.PROCESSOR) {
                report.add(prefix + "type", prefix + "type '" + version.type() + "' is a "
                        + role.get().name().toLowerCase(Locale.ROOT) + "; only processors have versions (their"
                        + " outputs for the same input are compared)");
                continue;
            }
            if (baseline < 0) {
                baseline = j;
                continue;
            }
            boolean keyed = catalog.isKeyed(version.type());
            boolean baselineKeyed = catalog.isKeyed(versions.get(baseline).type());
            if (keyed != baselineKeyed) {
                report.add(prefix + "type", prefix + "type '" + version.type() + "' is " + keyedness(keyed)
                        + " but versions[" + baseline + "].type '" + versions.get(baseline).type() + "' is "
                        + keyedness(baselineKeyed) + "; the versions share the operator's inputs, so they must all"
                        + " keep state per key or none");
            }
        }
        checkVoting(operator.voting() == null ? VotingSpec.DEFAULTS : operator.voting(), versions.size(), report);
    }

    private static String keyedness(boolean keyed) {
        return keyed ? "keyed" : "not keyed";
    }

    private static void checkVoting(VotingSpec voting, int versions, Reporter report) {
        if (voting.strategy() != null && VotingStrategy.ofSpecName(voting.strategy()).isEmpty()) {
            report.add("voting.strategy", "voting.strategy '" + voting.strategy() + "' is unknown; give one of "
                    + VotingStrategy.specNames() + ", or leave it out for majority");
        }
        if (voting.quorum() != null && (voting.quorum() < 1 || voting.quorum() > Math.max(1, versions))) {
            report.add("voting.quorum", "voting.quorum " + voting.quorum() + " is out of range; give 1.."
                    + Math.max(1, versions) + " (the versions that must agree), or leave it out for a majority ("
                    + (versions / 2 + 1) + ")");
        }
        if (voting.epsilon() != null) {
            if (!(voting.epsilon() >= 0) || voting.epsilon().isInfinite()) {
                report.add("voting.epsilon", "voting.epsilon " + voting.epsilon() + " is not a finite number of at"
                        + " least 0; give how far apart two numbers may be and still agree");
            } else if (voting.strategy() == null || voting.strategy().equalsIgnoreCase("majority")) {
                report.add("voting.epsilon", "voting.epsilon applies to inexact-majority, median and weighted;"
                        + " majority compares values for equality: remove epsilon or set voting.strategy");
            }
        }
        if (voting.deadlineMs() != null && (voting.deadlineMs() < 1 || voting.deadlineMs() > MAX_DEADLINE_MS)) {
            report.add("voting.deadlineMs", "voting.deadlineMs " + voting.deadlineMs() + " is out of range; give"
                    + " 1.." + MAX_DEADLINE_MS + " (how long a vote waits for late versions), or leave it out");
        }
        if (voting.onNoAgreement() != null
                && NoAgreementAction.ofSpecName(voting.onNoAgreement()).isEmpty()) {
            report.add("voting.onNoAgreement", "voting.onNoAgreement '" + voting.onNoAgreement() + "' is unknown;"
                    + " give one of " + NoAgreementAction.specNames() + ", or leave it out for drop-and-count");
        }
        if (voting.exclusion() != null) {
            checkExclusion(voting.exclusion(), report);
        }
    }

    private static void checkExclusion(ExclusionSpec exclusion, Reporter report) {
        if (exclusion.threshold() == null) {
            report.add("voting.exclusion.threshold", "voting.exclusion.threshold is missing; give the share of"
                    + " outvoted or late ballots, in (0, 1], that excludes a version (e.g. 0.2)");
        } else if (!(exclusion.threshold() > 0 && exclusion.threshold() <= 1)) {
            report.add("voting.exclusion.threshold", "voting.exclusion.threshold " + exclusion.threshold()
                    + " is out of range; give a share in (0, 1], e.g. 0.2");
        }
        requireVotes("voting.exclusion.window", exclusion.window(), "the latest votes the share is taken over",
                report);
        requireVotes("voting.exclusion.probation", exclusion.probation(),
                "the votes in a row an excluded version must pass to be re-admitted", report);
    }

    private static void requireVotes(String field, Integer value, String meaning, Reporter report) {
        if (value != null && (value < 1 || value > MAX_WINDOW)) {
            report.add(field, field + " " + value + " is out of range; give 1.." + MAX_WINDOW + " (" + meaning
                    + "), or leave it out for 100");
        }
    }

    /** Adds violations at paths relative to one operator. */
    private record Reporter(int index, String operatorId, List<Violation> violations) {

        void add(String relative, String message) {
            violations.add(new Violation(operatorId, TopologyValidator.path(index, relative), message));
        }
    }
}
