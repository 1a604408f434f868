package io.steadfast.protocol.router;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The router's answer to {@code GET /api/v1/topologies/{id}/votes}: what the versions of each N-version operator did,
 * summed over the operator's vote tasks.
 *
 * @param topology  the topology
 * @param operators its N-version operators, in plan order (none for a topology without any)
 */
public record TopologyVotes(TopologyId topology, List<Operator> operators) {

    /**
     * @param operator    the N-version operator
     * @param strategy    its voting strategy
     * @param versions    each version, in the order of the spec's {@code versions}
     * @param unavailable vote tasks whose hosts did not answer: their counts are missing from the sums
     */
    public record Operator(OperatorId operator, String strategy, List<Version> versions, List<TaskId> unavailable) {
    }

    /**
     * @param version       its index in the spec's {@code versions}
     * @param operator      the operator its tasks run as
     * @param type          its operator type
     * @param agreed        ballots that agreed with their vote's result
     * @param outvoted      ballots that did not (or cast in a vote without a result)
     * @param late          ballots that arrived after their vote's deadline, dropped
     * @param failed        times one of its tasks failed and was restarted in place, since the router started
     * @param excludedSince when a vote task first excluded it, if one excludes it now
     * @param weight        its current weight in a weighted vote (1 less its recent share of outvoted or late
     *                      ballots), averaged over the vote tasks
     */
    public record Version(int version, OperatorId operator, String type, long agreed, long outvoted, long late,
                          long failed, @Nullable Instant excludedSince, double weight) {
    }
}
