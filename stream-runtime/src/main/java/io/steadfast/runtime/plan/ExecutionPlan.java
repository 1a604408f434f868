package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A topology expanded into tasks (operator × subtask) and channels (upstream task → downstream task), as made
 * by {@link PlanExpander}. Immutable; reads to and from JSON with any Jackson 3 mapper (ids are plain strings).
 *
 * <p>Invariants checked on construction (so that a stored or received plan is checked too): every task and
 * channel belongs to the topology, task ids are unique, and channel {@code i} has index {@code i}.
 */
public final class ExecutionPlan {

    private final TopologyId topology;
    private final List<TaskSpec> tasks;
    private final List<ChannelSpec> channels;
    private final RecoveryMode recoveryMode;
    private final Map<TaskId, TaskSpec> tasksById = new HashMap<>();
    private final Map<OperatorId, List<TaskSpec>> tasksByOperator = new LinkedHashMap<>();

    /** A plan that recovers {@link RecoveryMode#GLOBAL}ly. */
    public ExecutionPlan(TopologyId topology, List<TaskSpec> tasks, List<ChannelSpec> channels) {
        this(topology, tasks, channels, RecoveryMode.GLOBAL);
    }

    /**
     * @param topology the topology
     * @param tasks in plan order: operators in topological order, subtasks ascending
     * @param channels ordered by index
     * @param recoveryMode how the topology recovers; {@link RecoveryMode#GLOBAL} if null (plans stored before
     *                     there was a choice)
     */
    @JsonCreator
    public ExecutionPlan(@JsonProperty("topology") TopologyId topology,
                         @JsonProperty("tasks") List<TaskSpec> tasks,
                         @JsonProperty("channels") List<ChannelSpec> channels,
                         @JsonProperty("recoveryMode") RecoveryMode recoveryMode) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.tasks = List.copyOf(tasks);
        this.channels = List.copyOf(channels);
        this.recoveryMode = recoveryMode == null ? RecoveryMode.GLOBAL : recoveryMode;
        for (TaskSpec task : this.tasks) {
            requireTopology(task.id().topology(), "task " + task.id());
            if (tasksById.put(task.id(), task) != null) {
                throw new IllegalArgumentException("task " + task.id() + " appears twice in the plan of " + topology);
            }
            tasksByOperator.computeIfAbsent(task.id().operator(), operator -> new ArrayList<>()).add(task);
        }
        for (int i = 0; i < this.channels.size(); i++) {
            ChannelId id = this.channels.get(i).id();
            requireTopology(id.topology(), "channel " + id);
            if (id.index() != i) {
                throw new IllegalArgumentException("channel " + id + " is at position " + i + "; channels must be"
                        + " ordered by index from 0 without gaps");
            }
        }
    }

    /**
     * The same plan for another deployment: every channel id carries {@code epoch}, so that frames of an
     * earlier deployment still in flight are dropped as unknown instead of being taken for new ones.
     */
    public ExecutionPlan withEpoch(int epoch) {
        List<TaskSpec> newTasks = new ArrayList<>(tasks.size());
        for (TaskSpec task : tasks) {
            List<InputChannel> inputs = task.inputs().stream()
                    .map(in -> new InputChannel(in.channel().withEpoch(epoch), in.from(), in.inputIndex())).toList();
            List<OutputEdge> outputs = task.outputs().stream()
                    .map(out -> new OutputEdge(out.to(), out.partitioning(),
                            out.channels().stream().map(channel -> channel.withEpoch(epoch)).toList()))
                    .toList();
            newTasks.add(new TaskSpec(task.id(), task.type(), task.parallelism(), task.config(), inputs, outputs));
        }
        List<ChannelSpec> newChannels = channels.stream()
                .map(channel -> new ChannelSpec(channel.id().withEpoch(epoch), channel.from(), channel.to(),
                        channel.partitioning()))
                .toList();
        return new ExecutionPlan(topology, newTasks, newChannels, recoveryMode);
    }

    /** The same plan, recovering in {@code mode}. */
    public ExecutionPlan withRecoveryMode(RecoveryMode mode) {
        return new ExecutionPlan(topology, tasks, channels, mode);
    }

    /** The deployment this plan's channels belong to; 0 for the first. */
    @JsonIgnore
    public int epoch() {
        return channels.isEmpty() ? 0 : channels.get(0).id().epoch();
    }

    private void requireTopology(TopologyId owner, String what) {
        if (!owner.equals(topology)) {
            throw new IllegalArgumentException(what + " belongs to topology '" + owner + "', not '" + topology + "'");
        }
    }

    @JsonProperty("topology")
    public TopologyId topology() {
        return topology;
    }

    /** Operators in topological order, subtasks ascending. */
    @JsonProperty("tasks")
    public List<TaskSpec> tasks() {
        return tasks;
    }

    /** Ordered by index. */
    @JsonProperty("channels")
    public List<ChannelSpec> channels() {
        return channels;
    }

    @JsonProperty("recoveryMode")
    public RecoveryMode recoveryMode() {
        return recoveryMode;
    }

    public Optional<TaskSpec> task(TaskId id) {
        return Optional.ofNullable(tasksById.get(id));
    }

    public Optional<ChannelSpec> channel(ChannelId id) {
        boolean inPlan = id.topology().equals(topology) && id.index() < channels.size()
                && channels.get(id.index()).id().equals(id);
        return inPlan ? Optional.of(channels.get(id.index())) : Optional.empty();
    }

    /** The subtasks of an operator, ascending; empty if the operator is not in the plan. */
    public List<TaskSpec> tasksOf(OperatorId operator) {
        return List.copyOf(tasksByOperator.getOrDefault(operator, List.of()));
    }

    /** The tasks without inputs (the subtasks of source operators), in plan order. */
    public List<TaskSpec> sources() {
        return tasks.stream().filter(task -> task.inputs().isEmpty()).toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExecutionPlan that && topology.equals(that.topology) && tasks.equals(that.tasks)
                && channels.equals(that.channels) && recoveryMode == that.recoveryMode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topology, tasks, channels, recoveryMode);
    }

    @Override
    public String toString() {
        return "ExecutionPlan[" + topology + ": " + tasks.size() + " tasks, " + channels.size() + " channels, "
                + recoveryMode + " recovery]";
    }
}
