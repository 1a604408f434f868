package io.steadfast.router.host;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import java.net.URI;
import java.util.Map;

/**
 * What the router tells a host that recovers lost tasks once every host has pointed its channels at them.
 *
 * @param recovery      the router's id of the recovery, as in its {@link InPlaceRecovery}
 * @param heads         what live upstream tasks had sent on each channel to a task recovered there: the tasks have
 *                      caught up once they took that in
 * @param heldDecisions what each host that pointed its channels away from the lost tasks holds of their logged
 *                      decisions, by the host's control URL: the spans of its earliest runs, by task (a task it holds
 *                      nothing of left out). A host that fetched the decisions ahead uses those of every peer whose
 *                      spans did not change, and asks the others again.
 */
public record CatchUp(String recovery, Map<ChannelId, Long> heads, Map<URI, Map<TaskId, DecisionSpan>> heldDecisions) {

    public CatchUp {
        heads = Map.copyOf(heads);
        heldDecisions = Map.copyOf(heldDecisions);
    }
}
