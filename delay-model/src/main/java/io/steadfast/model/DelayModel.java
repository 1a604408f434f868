package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The delay model of one job: from its plan, loads, channel costs, placement and recovery settings, the predicted
 * delay of every task and end to end ({@link LongestPath}), and for losing each host the predicted LOCAL and GLOBAL
 * recovery ({@link LocalRecoveryTime}, {@link GlobalRecoveryTime}) and the faster of them ({@link ModeChoice}).
 *
 * <p>Deterministic and side-effect free: no clock, no threads; the same inputs give an equal report. Feed it
 * measured loads to predict now, or assumed ones to predict ahead.
 *
 * <pre>{@code
 * ModelReport report = DelayModel.forPlan(plan)
 *         .loads(loads).channelCosts(ChannelCosts.uniform(new ChannelCost(0.001, 0.0005)))
 *         .placement(hostByTask).recovery(settings)
 *         .report();
 * }</pre>
 */
public final class DelayModel {

    private final ExecutionPlan plan;
    private Collection<TaskLoad> loads;
    private ChannelCosts channelCosts;
    private Map<TaskId, HostId> placement;
    private RecoverySettings recovery;
    private QueueingModel queueing = new KingmanGG1();

    private DelayModel(ExecutionPlan plan) {
        this.plan = Objects.requireNonNull(plan, "plan");
    }

    /** A model of {@code plan}; give it loads, channel costs, a placement and recovery settings, then ask. */
    public static DelayModel forPlan(ExecutionPlan plan) {
        return new DelayModel(plan);
    }

    /** One load per task of the plan. */
    public DelayModel loads(Collection<TaskLoad> taskLoads) {
        this.loads = List.copyOf(taskLoads);
        return this;
    }

    public DelayModel channelCosts(ChannelCosts costs) {
        this.channelCosts = Objects.requireNonNull(costs, "channelCosts");
        return this;
    }

    /** The host of every task of the plan. */
    public DelayModel placement(Map<TaskId, HostId> hostByTask) {
        this.placement = Map.copyOf(hostByTask);
        return this;
    }

    public DelayModel recovery(RecoverySettings settings) {
        this.recovery = Objects.requireNonNull(settings, "recovery");
        return this;
    }

    /** The per-task model; {@link KingmanGG1} unless set. */
    public DelayModel queueing(QueueingModel model) {
        this.queueing = Objects.requireNonNull(model, "queueing");
        return this;
    }

    /**
     * Computes the report.
     *
     * @throws IllegalStateException naming what was not given
     * @throws IllegalArgumentException if the inputs do not fit the plan (a task without load or host, a load or
     *                                  channel cost for something not in the plan) or the plan is cyclic
     */
    public ModelReport report() {
        require(loads, "loads");
        require(channelCosts, "channelCosts");
        require(placement, "placement");
        require(recovery, "recovery");
        TaskLoads taskLoads = TaskLoads.of(plan, loads);
        Placement hosts = Placement.of(plan, placement);
        channelCosts.requireEdgesOf(plan);
        TopologyDelay delay = LongestPath.of(plan, taskLoads, channelCosts, queueing);

        RecoveryInputs inputs = new RecoveryInputs(plan, taskLoads, hosts, recovery, delay);
        LocalRecoveryTime local = new LocalRecoveryTime(inputs);
        GlobalRecoveryTime global = new GlobalRecoveryTime(inputs);
        List<ModeChoice> losses = new ArrayList<>();
        for (HostId host : hosts.hosts()) {
            losses.add(ModeChoice.between(local.ifLost(host), global.ifLost(host)));
        }
        return new ModelReport(queueing.name(), taskLoads.all(), channelCosts, hosts, recovery, delay, losses);
    }

    private void require(Object input, String name) {
        if (input == null) {
            throw new IllegalStateException("the delay model of '" + plan.topology() + "' has no " + name
                    + "; give it with DelayModel." + name + "(...) before report()");
        }
    }
}
