package io.steadfast.router.host;

import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes the answer to a host's heartbeat: the {@link HostAssignment} the host reconciles against, made afresh
 * from the stored topologies each time (no state of its own to lose in a router restart). Also logs, once each,
 * the stale deployments hosts report: a topology at an older epoch than the router's, typically on a host that
 * was declared dead, kept running unseen and has come back. Thread-safe.
 */
public final class HostAssignments {

    private static final Logger LOG = LoggerFactory.getLogger(HostAssignments.class);

    private final TopologyRepository topologies;
    /** {@code host/topology@epoch} of every stale deployment already logged. */
    private final Set<String> loggedStale = ConcurrentHashMap.newKeySet();

    public HostAssignments(TopologyRepository topologies) {
        this.topologies = topologies;
    }

    /**
     * What {@code host} should run: every known topology at its current epoch, with its tasks placed there.
     *
     * @param reported what the host says it runs, for the log
     * @return empty if the stored topologies cannot be read (the host then keeps what it runs)
     */
    public Optional<HostAssignment> assignmentOf(HostId host, List<HostDeployment> reported) {
        List<DeployedTopology> all;
        try {
            all = topologies.all();
        } catch (RuntimeException e) {
            LOG.warn("Cannot read the stored topologies to answer host {}'s heartbeat ({}); it keeps its tasks",
                    host, e.getMessage());
            return Optional.empty();
        }
        List<HostDeployment> deployments = new ArrayList<>(all.size());
        for (DeployedTopology topology : all) {
            List<TaskId> here = topology.placement().entrySet().stream()
                    .filter(entry -> entry.getValue().equals(host)).map(Map.Entry::getKey).toList();
            deployments.add(new HostDeployment(topology.id(), topology.plan().epoch(), here));
        }
        HostAssignment assignment = new HostAssignment(deployments);
        logStale(host, reported, assignment);
        return Optional.of(assignment);
    }

    private void logStale(HostId host, List<HostDeployment> reported, HostAssignment assignment) {
        for (HostDeployment running : reported) {
            assignment.of(running.topology())
                    .filter(current -> current.epoch() > running.epoch()
                            || (current.epoch() == running.epoch() && current.tasks().isEmpty()))
                    .filter(current -> loggedStale.add(host + "/" + running.topology() + "@" + running.epoch()))
                    .ifPresent(current -> LOG.warn("Host {} still runs {} of topology '{}' at epoch {}, which this"
                            + " router now runs at epoch {} {}; the heartbeat answer tells the host to cancel them",
                            host, running.tasks(), running.topology(), running.epoch(), current.epoch(),
                            current.tasks().isEmpty() ? "on other hosts" : "with " + current.tasks() + " there"));
        }
    }
}
