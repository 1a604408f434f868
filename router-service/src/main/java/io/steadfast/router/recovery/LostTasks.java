package io.steadfast.router.recovery;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Which tasks of a topology a failure took: those on hosts that are DEAD or unknown, or on one host. */
final class LostTasks {

    private LostTasks() {
    }

    /** The topology's tasks on a host that is DEAD or not registered, sorted. */
    static List<TaskId> onDeadHosts(DeployedTopology topology, HeartbeatFailureDetector detector) {
        return topology.placement().entrySet().stream().filter(placed -> {
            Optional<RegisteredHost> registered = detector.host(placed.getValue());
            return registered.isEmpty() || detector.statusOf(registered.get()) == HostStatus.DEAD;
        }).map(Map.Entry::getKey).sorted().toList();
    }

    /** The topology's tasks on {@code host}, sorted. */
    static List<TaskId> on(DeployedTopology topology, HostId host) {
        return topology.placement().entrySet().stream().filter(placed -> placed.getValue().equals(host))
                .map(Map.Entry::getKey).sorted().toList();
    }
}
