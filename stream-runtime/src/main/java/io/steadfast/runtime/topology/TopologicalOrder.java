package io.steadfast.runtime.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Orders operators so that every operator comes after all operators it reads from. Among the operators that
 * are ready at a step, the one declared first in the spec is taken, so a spec already written upstream-first
 * keeps its declaration order, and the result is the same for the same spec.
 */
public final class TopologicalOrder {

    private TopologicalOrder() {
    }

    /**
     * The operators of a validated spec in topological order.
     *
     * @throws IllegalArgumentException if an input names no operator or the graph has a cycle (a spec that
     *                                  {@link TopologyValidator} would reject)
     */
    public static List<OperatorSpec> of(TopologySpec spec) {
        OperatorGraph graph = new OperatorGraph(spec);
        for (OperatorSpec operator : spec.operators()) {
            for (InputSpec input : operator.inputs()) {
                if (graph.indexOf(input.from()).isEmpty()) {
                    throw new IllegalArgumentException("Operator '" + operator.id() + "' reads from '" + input.from()
                            + "', which is not in topology '" + spec.id() + "'; validate the spec first");
                }
            }
        }
        List<Integer> order = indices(graph);
        if (order.size() < graph.size()) {
            throw new IllegalArgumentException("Topology '" + spec.id() + "' has a cycle; validate the spec first");
        }
        List<OperatorSpec> operators = new ArrayList<>(order.size());
        order.forEach(index -> operators.add(spec.operators().get(index)));
        return operators;
    }

    /** Kahn's algorithm; operators on or downstream of a cycle are left out. */
    static List<Integer> indices(OperatorGraph graph) {
        int[] pending = new int[graph.size()];
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < graph.size(); i++) {
            pending[i] = graph.upstreams(i).size();
            if (pending[i] == 0) {
                ready.add(i);
            }
        }
        List<Integer> order = new ArrayList<>(graph.size());
        while (!ready.isEmpty()) {
            int next = ready.poll();
            order.add(next);
            for (int downstream : graph.downstreams(next)) {
                if (--pending[downstream] == 0) {
                    ready.add(downstream);
                }
            }
        }
        return order;
    }
}
