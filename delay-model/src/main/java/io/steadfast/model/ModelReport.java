package io.steadfast.model;

import io.steadfast.runtime.plan.HostId;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link DelayModel} predicts for a job, with the inputs it was computed from, so that a prediction
 * can be checked against measurements and explained.
 *
 * @param queueingModel the name of the per-task model
 * @param loads every task's load, in plan order
 * @param channelCosts the channel costs
 * @param placement where every task runs
 * @param settings the recovery settings
 * @param delay the per-task and end-to-end delay
 * @param hostLosses for each host that runs a task, ascending: both modes' recovery from losing it, and the faster
 */
public record ModelReport(String queueingModel, List<TaskLoad> loads, ChannelCosts channelCosts, Placement placement,
                          RecoverySettings settings, TopologyDelay delay, List<ModeChoice> hostLosses) {

    public ModelReport {
        Objects.requireNonNull(queueingModel, "queueingModel");
        loads = List.copyOf(loads);
        Objects.requireNonNull(channelCosts, "channelCosts");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(delay, "delay");
        hostLosses = List.copyOf(hostLosses);
    }

    /** @throws IllegalArgumentException if {@code host} runs no task of the job */
    public ModeChoice ifLost(HostId host) {
        return hostLosses.stream().filter(choice -> choice.lostHost().equals(host)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("host " + host + " runs no task of this job; hosts: "
                        + placement.hosts()));
    }
}
