package io.steadfast.runtime.plan;

import io.steadfast.runtime.topology.InputSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.OperatorSpec;
import io.steadfast.runtime.topology.TopologicalOrder;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Expands a validated topology into an {@link ExecutionPlan}. Deterministic: the same spec gives an equal plan.
 *
 * <p>Order: operators in {@link TopologicalOrder} (upstream first; ties broken by declaration order, so a spec
 * written upstream-first keeps its order), each operator's subtasks ascending. Channels are numbered from 0
 * by downstream operator (in that order), then its declared inputs in order, then upstream subtask, then
 * downstream subtask.
 *
 * <p>N-version operators are first rewritten into their versions and a vote operator ({@link NVersionExpansion}).
 *
 * <p>Every input, whatever its partitioning, becomes the full bipartite set of channels: each of the
 * {@code p} upstream subtasks gets a channel to each of the {@code q} downstream subtasks ({@code p × q}
 * channels); the partitioning decides per event which of them carry it.
 */
public final class PlanExpander {

    private PlanExpander() {
    }

    /**
     * @param validated a spec that {@link io.steadfast.runtime.topology.TopologyValidator} accepted
     * @throws IllegalArgumentException if the spec breaks a rule the plan depends on (ids, inputs, cycles)
     */
    public static ExecutionPlan expand(TopologySpec validated) {
        TopologyId topology = validated.topologyId();
        TopologySpec plain = NVersionExpansion.of(validated);
        List<OperatorSpec> order = TopologicalOrder.of(plain);
        Map<String, OperatorSpec> byId = new HashMap<>();
        order.forEach(operator -> byId.put(operator.id(), operator));

        Map<TaskId, List<InputChannel>> inputs = new HashMap<>();
        Map<TaskId, List<OutputEdge>> outputs = new HashMap<>();
        List<ChannelSpec> channels = new ArrayList<>();
        for (OperatorSpec downstream : order) {
            OperatorId to = downstream.operatorId();
            for (int inputIndex = 0; inputIndex < downstream.inputs().size(); inputIndex++) {
                InputSpec input = downstream.inputs().get(inputIndex);
                OperatorSpec upstream = byId.get(input.from());
                for (int from = 0; from < upstream.parallelism(); from++) {
                    TaskId upstreamTask = new TaskId(topology, upstream.operatorId(), from);
                    List<ChannelId> edge = new ArrayList<>(downstream.parallelism());
                    for (int subtask = 0; subtask < downstream.parallelism(); subtask++) {
                        ChannelId channel = new ChannelId(topology, channels.size());
                        TaskId downstreamTask = new TaskId(topology, to, subtask);
                        channels.add(new ChannelSpec(channel, upstreamTask, downstreamTask, input.partitioning()));
                        inputs.computeIfAbsent(downstreamTask, task -> new ArrayList<>())
                                .add(new InputChannel(channel, upstreamTask, inputIndex));
                        edge.add(channel);
                    }
                    outputs.computeIfAbsent(upstreamTask, task -> new ArrayList<>())
                            .add(new OutputEdge(to, input.partitioning(), edge));
                }
            }
        }

        List<TaskSpec> tasks = new ArrayList<>();
        for (OperatorSpec operator : order) {
            for (int subtask = 0; subtask < operator.parallelism(); subtask++) {
                TaskId id = new TaskId(topology, operator.operatorId(), subtask);
                tasks.add(new TaskSpec(id, operator.type(), operator.parallelism(), operator.config(),
                        inputs.getOrDefault(id, List.of()), outputs.getOrDefault(id, List.of())));
            }
        }
        return new ExecutionPlan(topology, tasks, channels,
                RecoveryMode.valueOf(validated.recovery().normalizedMode()));
    }
}
