package io.steadfast.runtime.recovery;

import io.steadfast.runtime.dataplane.InboundFrame;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ChannelSpec;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The decisions a host keeps: the decision log of each of its tasks, what each of their channels to other hosts
 * forwards (the sender's log and those of its upstream tasks on the host), and the decisions of upstream tasks
 * elsewhere that arrived with its input. Thread-safe.
 */
public final class HostDecisions {

    private final HostId id;
    /** The decisions each channel to another host carries, by channel (see {@link #forwarder}). */
    private final Map<ChannelId, DecisionForwarder> forwarders = new ConcurrentHashMap<>();
    private final Map<TaskId, DecisionLog> logs = new ConcurrentHashMap<>();
    private final DecisionStore upstream = new DecisionStore();

    public HostDecisions(HostId id) {
        this.id = id;
    }

    /** Starts an empty log for a task deployed here. */
    public DecisionLog startLog(TaskId task) {
        DecisionLog log = new DecisionLog(0);
        logs.put(task, log);
        return log;
    }

    /** Takes over the logs of tasks recovered here. */
    public void putLogs(Map<TaskId, DecisionLog> recovered) {
        logs.putAll(recovered);
    }

    /** The log of a task that runs here, or null. */
    public DecisionLog logOf(TaskId task) {
        return logs.get(task);
    }

    /**
     * What the frames of an output channel carry for replays: nothing if the receiver runs on this host (it
     * would be lost with the sender); else the sender's decisions and those of its upstream tasks on this
     * host, found through the placement (whose decisions the sender's output depends on, and which would be
     * lost with it).
     */
    public DecisionForwarder forwarder(ExecutionPlan plan, TaskPlacement placement, TaskSpec sender,
                                       ChannelId channel, Function<TaskId, DecisionLog> logs) {
        ChannelSpec channelSpec = plan.channel(channel).orElseThrow();
        if (id.equals(placement.hostOf(channelSpec.to()))) {
            return null;
        }
        DecisionForwarder forwarder = new DecisionForwarder(originsUpstreamHere(plan, placement, sender.id(),
                logs));
        forwarders.put(channel, forwarder);
        return forwarder;
    }

    /**
     * The logs a channel of {@code sender} to another host carries: the sender's and those of its upstream tasks on
     * this host, transitively, as {@code placement} puts them.
     */
    private List<DecisionForwarder.Origin> originsUpstreamHere(ExecutionPlan plan, TaskPlacement placement,
                                                               TaskId sender, Function<TaskId, DecisionLog> logs) {
        List<DecisionForwarder.Origin> origins = new ArrayList<>();
        Set<TaskId> seen = new HashSet<>();
        ArrayDeque<TaskId> toVisit = new ArrayDeque<>(List.of(sender));
        while (!toVisit.isEmpty()) {
            TaskId task = toVisit.poll();
            if (!seen.add(task)) {
                continue;
            }
            DecisionLog log = logs.apply(task);
            if (log != null) {
                origins.add(new DecisionForwarder.Origin(plan.tasks().indexOf(plan.task(task).orElseThrow()), log,
                        0));
            }
            for (InputChannel input : plan.task(task).orElseThrow().inputs()) {
                if (id.equals(placement.hostOf(input.from()))) {
                    toVisit.add(input.from());
                }
            }
        }
        return origins;
    }

    /**
     * After tasks were recovered onto this host: the channels to other hosts of the tasks that ran here already carry
     * from now on the logs of those recovered upstream of them. A recovered task's channels to its receivers here
     * carry no decisions (they would be lost with it), so without this its decisions would be held by no other
     * host, and a later loss of this host would lose them: the task would regenerate its output differently (a source
     * its barriers elsewhere) from what its receivers' receivers have seen.
     */
    public void forwardRecoveredUpstreamLogs(ExecutionPlan plan, TaskPlacement placement, Predicate<TaskId> running) {
        forwarders.forEach((channel, forwarder) -> {
            Optional<TaskId> sender = plan.channel(channel).map(ChannelSpec::from);
            if (sender.isEmpty() || !running.test(sender.get())) {
                return; // of another topology or epoch, or of a task prepared ahead and not running
            }
            originsUpstreamHere(plan, placement, sender.get(), logs::get).stream()
                    .filter(origin -> !forwarder.carries(origin.taskIndex())).forEach(forwarder::add);
        });
    }

    /**
     * Stores the decisions an arriving frame starts with, before its task takes it in (IO thread): a task held up may
     * take the frame in only after the sender's recovery collected its decisions from here.
     */
    public void receiveLeading(TopologyId topology, InboundFrame frame) {
        upstream.receiveLeading(topology, frame);
    }

    /**
     * The decisions of a task of {@code plan} (null: none deployed) that arrived here with its output, from
     * {@code fromOffset} on, if this host holds them from there.
     */
    public Optional<byte[]> decisionsOf(ExecutionPlan plan, TaskId task, long fromOffset) {
        if (plan == null || plan.task(task).isEmpty()) {
            return Optional.empty();
        }
        return upstream.read(task.topology(), plan.tasks().indexOf(plan.task(task).get()), fromOffset);
    }

    /**
     * The earliest run of a task's decisions that arrived here with its output: what a host recovering the task
     * collects while it still fetches the snapshot that says from which offset the task replays.
     */
    public Optional<HeldDecisions> earliestOf(ExecutionPlan plan, TaskId task) {
        if (plan == null || plan.task(task).isEmpty()) {
            return Optional.empty();
        }
        return upstream.readEarliest(task.topology(), plan.tasks().indexOf(plan.task(task).get()));
    }

    public void forget(TopologyId topology) {
        forwarders.keySet().removeIf(channel -> channel.topology().equals(topology));
        upstream.forget(topology);
        logs.keySet().removeIf(task -> task.topology().equals(topology));
    }
}
