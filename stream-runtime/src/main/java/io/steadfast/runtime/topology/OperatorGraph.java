package io.steadfast.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The operators of a spec as a graph of declaration indices. Edges whose {@code from} names no operator, and
 * self-inputs, are left out (they are reported on their own). When ids repeat, the first declaration wins.
 */
final class OperatorGraph {

    private final Map<String, Integer> indexById = new HashMap<>();
    private final List<List<Integer>> upstreams = new ArrayList<>();
    private final List<List<Integer>> downstreams = new ArrayList<>();

    OperatorGraph(TopologySpec spec) {
        List<OperatorSpec> operators = spec.operators();
        for (int i = 0; i < operators.size(); i++) {
            if (operators.get(i).id() != null) {
                indexById.putIfAbsent(operators.get(i).id(), i);
            }
            upstreams.add(new ArrayList<>());
            downstreams.add(new ArrayList<>());
        }
        for (int i = 0; i < operators.size(); i++) {
            for (InputSpec input : operators.get(i).inputs()) {
                Integer from = input.from() == null ? null : indexById.get(input.from());
                if (from != null && from != i && !upstreams.get(i).contains(from)) {
                    upstreams.get(i).add(from);
                    downstreams.get(from).add(i);
                }
            }
        }
        downstreams.forEach(list -> list.sort(Integer::compare));
    }

    int size() {
        return upstreams.size();
    }

    /** The declaration index of the first operator with this id. */
    OptionalInt indexOf(String id) {
        Integer index = id == null ? null : indexById.get(id);
        return index == null ? OptionalInt.empty() : OptionalInt.of(index);
    }

    /** The operators this one reads from, in the order of its declared inputs. */
    List<Integer> upstreams(int operator) {
        return upstreams.get(operator);
    }

    /** The operators that read from this one, in declaration order. */
    List<Integer> downstreams(int operator) {
        return downstreams.get(operator);
    }
}
