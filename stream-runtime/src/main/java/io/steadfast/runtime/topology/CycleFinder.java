package io.steadfast.runtime.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Finds the cycles of an operator graph: one cycle per group of operators that can all reach each other
 * (strongly connected component), starting at the operator of the group declared first and following the data
 * flow, e.g. {@code [a, b, c]} for a → b → c → a. Removing one edge of a reported cycle may reveal another in
 * the same group; the next validation reports it.
 */
final class CycleFinder {

    private CycleFinder() {
    }

    static List<List<Integer>> cycles(OperatorGraph graph) {
        BitSet acyclic = new BitSet(graph.size());
        TopologicalOrder.indices(graph).forEach(acyclic::set);
        BitSet grouped = new BitSet(graph.size());
        List<List<Integer>> cycles = new ArrayList<>();
        for (int start = 0; start < graph.size(); start++) {
            if (acyclic.get(start) || grouped.get(start)) {
                continue;
            }
            BitSet group = reach(start, graph::downstreams);
            group.and(reach(start, graph::upstreams));
            grouped.or(group);
            if (group.cardinality() > 1) {
                cycles.add(shortestCycle(start, group, graph));
            }
        }
        return cycles;
    }

    private static BitSet reach(int start, IntFunction<List<Integer>> next) {
        BitSet seen = new BitSet();
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
        seen.set(start);
        while (!queue.isEmpty()) {
            for (int neighbour : next.apply(queue.poll())) {
                if (!seen.get(neighbour)) {
                    seen.set(neighbour);
                    queue.add(neighbour);
                }
            }
        }
        return seen;
    }

    /** Breadth-first along the data flow within the group, back to the start. */
    private static List<Integer> shortestCycle(int start, BitSet group, OperatorGraph graph) {
        int[] parent = new int[graph.size()];
        BitSet seen = new BitSet();
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(start));
        seen.set(start);
        while (!queue.isEmpty()) {
            int current = queue.poll();
            for (int downstream : graph.downstreams(current)) {
                if (downstream == start) {
                    return pathTo(current, start, parent);
                }
                if (group.get(downstream) && !seen.get(downstream)) {
                    seen.set(downstream);
                    parent[downstream] = current;
                    queue.add(downstream);
                }
            }
        }
        throw new IllegalStateException("operator " + start + " is in a cycle group but no cycle was found");
    }

    private static List<Integer> pathTo(int last, int start, int[] parent) {
        List<Integer> path = new ArrayList<>();
        for (int node = last; node != start; node = parent[node]) {
            path.add(node);
        }
        path.add(start);
        Collections.reverse(path);
        return path;
    }
}
