package io.steadfast.model;

import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The mean time a record waits in its output frame before the frame is sent, from the channel's rate and the tasks'
 * batching settings (the runtime's {@code TaskSettings}: linger, short linger, short-linger records). A frame goes out at the end of the linger period its first record fell
 * in (periods aligned on the clock), or, once it holds {@code shortLingerRecords}, a short linger after its first
 * record. A slow channel's records arrive at random points of a period and wait half of it on average; a fast one
 * fills a frame of {@code shortLingerRecords} in {@code shortLingerRecords / rate} and its records wait half that,
 * but no less than half the short linger.
 */
public final class FrameBatching {

    private final Duration linger;
    private final Duration shortLinger;
    private final int shortLingerRecords;

    public FrameBatching(Duration linger, Duration shortLinger, int shortLingerRecords) {
        this.linger = linger;
        this.shortLinger = shortLinger;
        this.shortLingerRecords = shortLingerRecords;
    }

    /** The mean wait in seconds of a record on a channel carrying {@code recordsPerSecond}. */
    public double meanLingerSeconds(double recordsPerSecond) {
        double lingerSeconds = seconds(linger);
        if (recordsPerSecond <= 0) {
            return lingerSeconds / 2;
        }
        double fill = shortLingerRecords / recordsPerSecond;
        return Math.min(lingerSeconds, Math.max(seconds(shortLinger), fill)) / 2;
    }

    /**
     * Per operator edge of {@code plan}, the batching delay at the edge's mean channel rate plus {@code network}:
     * {@code outPerSecond} gives each upstream task's output rate, shared evenly by its output channels.
     */
    public ChannelCosts channelCosts(ExecutionPlan plan, ToDoubleFunction<TaskId> outPerSecond,
                                     double networkSeconds) {
        return channelCosts(plan, outPerSecond, task -> OptionalDouble.empty(), networkSeconds);
    }

    /**
     * As {@link #channelCosts(ExecutionPlan, ToDoubleFunction, double)}, but a channel whose upstream task measured
     * the mean wait of its records in output frames ({@code measuredWaitSeconds}) takes that instead of this
     * model's. The two differ where records reach the output in bursts: a task emits a whole input frame's outputs
     * at once, and a frame opened by a burst waits its short linger for little more, so its records wait close to
     * the whole short linger rather than half of it; and the next burst, due about when the frame is, decides by
     * a race whether the frame leaves full or on time. An edge's delay is the mean over its channels weighted by
     * their rates (by count when none carries any), since every record pays its own channel's.
     */
    public ChannelCosts channelCosts(ExecutionPlan plan, ToDoubleFunction<TaskId> outPerSecond,
                                     Function<TaskId, OptionalDouble> measuredWaitSeconds, double networkSeconds) {
        ChannelCosts costs = ChannelCosts.uniform(new ChannelCost(meanLingerSeconds(0), networkSeconds));
        Map<TaskId, Integer> fanOut = new HashMap<>();
        for (ChannelSpec channel : plan.channels()) {
            fanOut.merge(channel.from(), 1, Integer::sum);
        }
        // [from, to] -> {channels, records/s, sum of waits, sum of rate x wait}
        Map<List<OperatorId>, double[]> edges = new LinkedHashMap<>();
        for (ChannelSpec channel : plan.channels()) {
            double rate = outPerSecond.applyAsDouble(channel.from()) / fanOut.get(channel.from());
            double wait = measuredWaitSeconds.apply(channel.from()).orElseGet(() -> meanLingerSeconds(rate));
            double[] edge = edges.computeIfAbsent(List.of(channel.from().operator(), channel.to().operator()),
                    key -> new double[4]);
            edge[0]++;
            edge[1] += rate;
            edge[2] += wait;
            edge[3] += rate * wait;
        }
        for (Map.Entry<List<OperatorId>, double[]> edge : edges.entrySet()) {
            double[] sums = edge.getValue();
            double wait = sums[1] > 0 ? sums[3] / sums[1] : sums[2] / sums[0];
            costs = costs.withEdge(edge.getKey().get(0), edge.getKey().get(1), new ChannelCost(wait, networkSeconds));
        }
        return costs;
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
