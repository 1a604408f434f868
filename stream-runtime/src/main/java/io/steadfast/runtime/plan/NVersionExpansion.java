package io.steadfast.runtime.plan;

import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.topology.InputSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.OperatorSpec;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.VersionSpec;
import io.steadfast.runtime.topology.VotingSpec;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites the N-version operators of a validated spec into plain operators, before {@link PlanExpander} expands it.
 * Operator {@code score} with versions v0..v(n-1) and parallelism p becomes:
 * <ul>
 *   <li>n version operators {@code score~v0}, ... ({@link OperatorId#version}), each of its version's type and
 *       config, parallelism p, reading every input of {@code score} with its partitioning: each upstream task writes
 *       the same records in the same order to every version, and partitions them alike;</li>
 *   <li>a vote operator that keeps the id {@code score}, so that what reads {@code score} reads the voted output
 *       unchanged: type {@value #VOTE_TYPE}, parallelism p, reading every version by key (all ballots for one
 *       input carry that input's key, so they meet in one vote task), its config the operator's voting settings and
 *       its number of versions.</li>
 * </ul>
 * Operators of one version are kept as they are, in their place.
 */
final class NVersionExpansion {

    /** The operator type of the tasks that vote on the versions' outputs. */
    public static final String VOTE_TYPE = BuiltinOperators.VOTE;

    private NVersionExpansion() {
    }

    static TopologySpec of(TopologySpec validated) {
        if (validated.operators().stream().noneMatch(OperatorSpec::isNVersion)) {
            return validated;
        }
        List<OperatorSpec> operators = new ArrayList<>();
        for (OperatorSpec operator : validated.operators()) {
            if (!operator.isNVersion()) {
                operators.add(operator);
                continue;
            }
            OperatorId id = operator.operatorId();
            List<InputSpec> ballots = new ArrayList<>();
            List<VersionSpec> versions = operator.versions();
            for (int j = 0; j < versions.size(); j++) {
                String version = id.version(j).value();
                operators.add(new OperatorSpec(version, versions.get(j).type(), operator.parallelism(),
                        operator.inputs(), versions.get(j).config()));
                ballots.add(InputSpec.byKey(version));
            }
            operators.add(new OperatorSpec(operator.id(), VOTE_TYPE, operator.parallelism(), ballots,
                    voteConfig(versions.size(), operator.voting() == null ? VotingSpec.DEFAULTS : operator.voting())));
        }
        return new TopologySpec(validated.id(), operators, validated.checkpointing(), validated.recovery());
    }

    /** {@code {"versions": n, "strategy": ..., ...}}: the voting settings the spec gave, and the count of versions. */
    private static ObjectNode voteConfig(int versions, VotingSpec voting) {
        ObjectNode config = JsonNodeFactory.instance.objectNode();
        config.put("versions", versions);
        if (voting.strategy() != null) {
            config.put("strategy", voting.strategy());
        }
        if (voting.quorum() != null) {
            config.put("quorum", voting.quorum());
        }
        if (voting.epsilon() != null) {
            config.put("epsilon", voting.epsilon());
        }
        if (voting.deadlineMs() != null) {
            config.put("deadlineMs", voting.deadlineMs());
        }
        if (voting.onNoAgreement() != null) {
            config.put("onNoAgreement", voting.onNoAgreement());
        }
        if (voting.exclusion() != null) {
            ObjectNode exclusion = config.putObject("exclusion");
            if (voting.exclusion().threshold() != null) {
                exclusion.put("threshold", voting.exclusion().threshold());
            }
            if (voting.exclusion().window() != null) {
                exclusion.put("window", voting.exclusion().window());
            }
            if (voting.exclusion().probation() != null) {
                exclusion.put("probation", voting.exclusion().probation());
            }
        }
        return config;
    }
}
