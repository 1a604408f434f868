package io.steadfast.runtime.topology;

import static io.steadfast.runtime.topology.TopologyValidator.path;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;

/**
 * Counts, from the spec alone, the channels its plan would have, and reports the inputs responsible when they are
 * over {@link TopologyLimits#maxChannels()}. Each input makes upstream parallelism × downstream parallelism channels
 * whatever its partitioning (see {@link Partitioning}), so a spec of a few hundred bytes can ask for a million;
 * the count is made without expanding anything.
 *
 * <p>The inputs named are the largest, as few as need to go for the rest to fit: usually the one input joining two
 * operators of high parallelism.
 */
final class ChannelBudget {

    private final TopologySpec spec;
    private final TopologyLimits limits;
    private final OperatorGraph graph;

    /** One input and the channels it makes. */
    private record Edge(int operator, int input, String from, int upstream, int downstream, int copies, long channels) {
    }

    ChannelBudget(TopologySpec spec, TopologyLimits limits) {
        this.spec = spec;
        this.limits = limits;
        this.graph = new OperatorGraph(spec);
    }

    /** The channels the plan would have. */
    long total() {
        return sum(edges());
    }

    void check(List<Violation> violations) {
        List<Edge> edges = edges();
        long total = sum(edges);
        if (total <= limits.maxChannels()) {
            return;
        }
        List<Edge> largestFirst = new ArrayList<>(edges);
        largestFirst.sort(Comparator.comparingLong(Edge::channels).reversed());
        // rest[k]: the channels of every input after the k largest; saturated sums still compare right with the limit
        long[] rest = new long[largestFirst.size() + 1];
        for (int k = largestFirst.size() - 1; k >= 0; k--) {
            rest[k] = saturatingAdd(rest[k + 1], largestFirst.get(k).channels());
        }
        int count = 0;
        while (rest[count] > limits.maxChannels()) {
            count++;
        }
        List<Edge> responsible = new ArrayList<>(largestFirst.subList(0, count));
        responsible.sort(Comparator.comparingInt(Edge::operator).thenComparingInt(Edge::input));
        for (Edge edge : responsible) {
            violations.add(violationOf(edge, total));
        }
    }

    private Violation violationOf(Edge edge, long total) {
        String to = spec.operators().get(edge.operator()).id();
        String relative = "inputs[" + edge.input() + "]";
        return new Violation(to, path(edge.operator(), relative), relative + " from '" + edge.from() + "' makes "
                + edge.channels() + " channels (parallelism " + edge.upstream() + " of '" + edge.from() + "' × "
                + edge.downstream() + " of '" + to + "'" + (edge.copies() > 1 ? " × its " + edge.copies() + " versions" : "")
                + ": every upstream subtask gets a channel to every downstream"
                + " subtask, whatever the partitioning), and the plan would have " + total + " channels in all, over"
                + " the limit of " + limits.maxChannels() + " (maxChannels); they would take "
                + ChannelFootprint.describe(total) + " of the hosts' heap before any event flows ("
                + ChannelFootprint.describe(1) + " each). Lower the parallelism of '" + edge.from() + "' or '" + to
                + "' so that the plan has at most " + limits.maxChannels() + " channels, or raise the limit if the hosts"
                + " have the heap for it");
    }

    /** Every input that names an operator, with the channels it makes; inputs that name none make none. */
    private List<Edge> edges() {
        List<Edge> edges = new ArrayList<>();
        List<OperatorSpec> operators = spec.operators();
        for (int i = 0; i < operators.size(); i++) {
            // an N-version operator gets every input once per version; its versions' channels to its vote tasks are
            // one per subtask and version, few beside these
            int downstream = Math.max(0, operators.get(i).parallelism());
            int copies = Math.max(1, operators.get(i).versions().size());
            List<InputSpec> inputs = operators.get(i).inputs();
            for (int j = 0; j < inputs.size(); j++) {
                OptionalInt from = graph.indexOf(inputs.get(j).from());
                if (from.isPresent()) {
                    int upstream = Math.max(0, operators.get(from.getAsInt()).parallelism());
                    edges.add(new Edge(i, j, inputs.get(j).from(), upstream, downstream, copies,
                            (long) upstream * downstream * copies));
                }
            }
        }
        return edges;
    }

    private static long sum(List<Edge> edges) {
        return edges.stream().mapToLong(Edge::channels).reduce(0, ChannelBudget::saturatingAdd);
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
