package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link ChannelCost} of every channel of a plan: one for all, and others for the channels between two given
 * operators (every subtask pair of that edge; the subtasks of one edge share a frame size and a linger, so they
 * are measured together). Immutable; {@link #withEdge} returns a copy.
 */
public final class ChannelCosts {

    /** An edge between two operators of a topology, in the direction records flow. */
    public record OperatorEdge(OperatorId from, OperatorId to) {

        public OperatorEdge {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }

        @Override
        public String toString() {
            return from + "->" + to;
        }
    }

    private final ChannelCost fallback;
    private final Map<OperatorEdge, ChannelCost> byEdge;

    private ChannelCosts(ChannelCost fallback, Map<OperatorEdge, ChannelCost> byEdge) {
        this.fallback = Objects.requireNonNull(fallback, "fallback");
        this.byEdge = Collections.unmodifiableMap(new LinkedHashMap<>(byEdge));
    }

    /** The same cost on every channel. */
    public static ChannelCosts uniform(ChannelCost cost) {
        return new ChannelCosts(cost, Map.of());
    }

    /** These costs, with {@code cost} on every channel from a subtask of {@code from} to one of {@code to}. */
    public ChannelCosts withEdge(OperatorId from, OperatorId to, ChannelCost cost) {
        Map<OperatorEdge, ChannelCost> edges = new LinkedHashMap<>(byEdge);
        edges.put(new OperatorEdge(from, to), Objects.requireNonNull(cost, "cost"));
        return new ChannelCosts(fallback, edges);
    }

    /** The cost of the channel from task {@code from} to task {@code to}. */
    public ChannelCost between(TaskId from, TaskId to) {
        return byEdge.getOrDefault(new OperatorEdge(from.operator(), to.operator()), fallback);
    }

    /** The cost of every channel no edge names. */
    public ChannelCost fallback() {
        return fallback;
    }

    /** The costs given per edge, in the order they were given. */
    public Map<OperatorEdge, ChannelCost> edges() {
        return byEdge;
    }

    /** @throws IllegalArgumentException naming the edge if one given here has no channel in {@code plan} */
    void requireEdgesOf(ExecutionPlan plan) {
        for (OperatorEdge edge : byEdge.keySet()) {
            boolean inPlan = plan.channels().stream().anyMatch(channel -> channel.from().operator().equals(edge.from())
                    && channel.to().operator().equals(edge.to()));
            if (!inPlan) {
                throw new IllegalArgumentException("a channel cost is given for edge " + edge + ", which the plan of '"
                        + plan.topology() + "' does not have; name an operator and one of its inputs");
            }
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ChannelCosts that && fallback.equals(that.fallback) && byEdge.equals(that.byEdge);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fallback, byEdge);
    }

    @Override
    public String toString() {
        return "ChannelCosts[" + fallback + ", by edge " + byEdge + "]";
    }
}
