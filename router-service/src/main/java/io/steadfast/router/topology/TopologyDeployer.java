package io.steadfast.router.topology;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.PlacementWarnings;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.placement.TaskPlacer;
import io.steadfast.router.placement.UnservedKinds;
import io.steadfast.router.topology.TopologyException.Reason;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Deploys and cancels topologies: read, validate, expand, place on LIVE hosts of the kinds the tasks need (vote tasks
 * on voters, the rest on PE hosts), deploy on every host that got tasks, and roll back on the hosts already deployed
 * if one fails. State-changing operations are serialised
 * (one at a time), so two submissions of the same id cannot both succeed.
 */
public final class TopologyDeployer {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyDeployer.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TopologySpecReader reader;
    private final TopologyValidator validator;
    private final int maxSpecBytes;
    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector failureDetector;
    private final TaskPlacer placer;
    private final HostClient hostClient;
    private final Clock clock;
    private final StandbyHosts standby;

    /**
     * How a submitted spec is read and checked.
     *
     * @param maxSpecBytes the largest spec accepted, in bytes
     */
    public record SpecChecks(TopologySpecReader reader, TopologyValidator validator, int maxSpecBytes) {
    }

    public TopologyDeployer(SpecChecks specs, TopologyRepository topologies, HeartbeatFailureDetector failureDetector,
                            TaskPlacer placer, HostClient hostClient, Clock clock) {
        this(specs, topologies, failureDetector, placer, hostClient, clock, new StandbyHosts(0));
    }

    /** @param standby the hosts kept free for local recovery, which new topologies are not placed on */
    public TopologyDeployer(SpecChecks specs, TopologyRepository topologies, HeartbeatFailureDetector failureDetector,
                            TaskPlacer placer, HostClient hostClient, Clock clock, StandbyHosts standby) {
        this.standby = standby;
        this.reader = specs.reader();
        this.validator = specs.validator();
        this.maxSpecBytes = specs.maxSpecBytes();
        this.topologies = topologies;
        this.failureDetector = failureDetector;
        this.placer = placer;
        this.hostClient = hostClient;
        this.clock = clock;
    }

    public int maxSpecBytes() {
        return maxSpecBytes;
    }

    /**
     * Validates and deploys a topology spec.
     *
     * @param json the UTF-8 JSON document, at most {@code maxSpecBytes + 1} bytes read
     * @throws io.steadfast.runtime.topology.TopologyValidationException listing every violation
     * @throws TopologyException if too large, already deployed, no host is LIVE (no voter, for a topology with vote
     *                            tasks), or a host refused or failed (the topology is then cancelled wherever it was
     *                            deployed: nothing of it runs)
     */
    public DeployedTopology submit(byte[] json) {
        if (json.length > maxSpecBytes) {
            throw new TopologyException(Reason.TOO_LARGE, "The topology spec is over the limit of " + maxSpecBytes
                    + " bytes; make it smaller or raise steadfast.router.limits.max-spec-bytes");
        }
        TopologySpec spec = validator.validate(reader.read(json));
        JsonNode document = JSON.readTree(json);
        ExecutionPlan plan = PlanExpander.expand(spec);
        synchronized (this) {
            TopologyId id = plan.topology();
            if (topologies.find(id).isPresent()) {
                throw new TopologyException(Reason.ALREADY_DEPLOYED, "Topology '" + id + "' is already deployed;"
                        + " DELETE /api/v1/topologies/" + id + " first or choose another id");
            }
            List<RegisteredHost> placeable = standby.forPlacement(failureDetector.liveHosts(), topologies.all());
            requireHostsFor(plan, placeable);
            Map<HostId, RegisteredHost> live = new TreeMap<>();
            placeable.forEach(host -> live.put(host.id(), host));
            Map<TaskId, HostId> placement = placer.place(plan, StandbyHosts.candidates(placeable, topologies.all(),
                    null));
            deployOnHosts(plan, placement, live);
            DeployedTopology deployed = new DeployedTopology(id, document, plan, placement, clock.instant());
            topologies.add(deployed);
            LOG.info("Deployed topology '{}': {} tasks on hosts {}", id, placement.size(), deployed.hosts());
            PlacementWarnings.of(plan, placement).forEach(warning -> LOG.warn("Topology '{}': {}", id, warning));
            return deployed;
        }
    }

    /** @throws TopologyException if no host among {@code live} is of a kind some task of the plan needs */
    private static void requireHostsFor(ExecutionPlan plan, List<RegisteredHost> live) {
        List<HostKind> unserved = UnservedKinds.of(plan, live);
        TopologyId id = plan.topology();
        if (unserved.contains(HostKind.PE)) {
            throw new TopologyException(Reason.NO_LIVE_HOST, "No LIVE host to run topology '" + id + "' on: start a"
                    + " pe-host-service pointed at this router (steadfast.host.router-url) and check GET"
                    + " /api/v1/hosts");
        }
        if (unserved.contains(HostKind.VOTER)) {
            List<String> voted = plan.tasks().stream().filter(TaskSpec::isVote)
                    .map(task -> task.id().operator().value()).distinct().toList();
            throw new TopologyException(Reason.NO_LIVE_VOTER, "Topology '" + id + "' has N-version operators "
                    + voted + ", whose votes run only on voter hosts, and no voter-service is LIVE: start a"
                    + " voter-service pointed at this router (steadfast.host.router-url; ./steadfast local starts one"
                    + " unless given --voters 0) and check GET /api/v1/hosts");
        }
    }

    private void deployOnHosts(ExecutionPlan plan, Map<TaskId, HostId> placement, Map<HostId, RegisteredHost> live) {
        Map<HostId, String> endpoints = new LinkedHashMap<>();
        placement.values().stream().distinct().sorted()
                .forEach(host -> endpoints.put(host, live.get(host).dataEndpoint()));
        TaskPlacement taskPlacement = new TaskPlacement(placement, endpoints);
        List<RegisteredHost> deployed = new ArrayList<>();
        for (HostId hostId : endpoints.keySet()) {
            RegisteredHost host = live.get(hostId);
            try {
                hostClient.deploy(host, plan, taskPlacement);
                deployed.add(host);
            } catch (HostCallException e) {
                throw rolledBack(plan.topology(), host, deployed, e);
            }
        }
    }

    /**
     * Cancels the topology on the hosts that had accepted it, and on the failing host too unless it refused (a host
     * that did not answer, or failed, may have started part of it), so that nothing of it keeps running: the router
     * records a topology only once every host accepted it, and would never cancel what it does not know. A host that
     * cannot be reached to cancel drops the topology itself once its {@code steadfast.host.unknown-topology-grace}
     * has passed, since no heartbeat answer names it.
     */
    private TopologyException rolledBack(TopologyId topology, RegisteredHost failed, List<RegisteredHost> deployed,
                                         HostCallException e) {
        List<RegisteredHost> toCancel = new ArrayList<>(deployed);
        if (!e.refused()) {
            toCancel.add(failed);
        }
        if (e.refused()) { // an answer, not a fault: its message says it all
            LOG.warn("Host {} refused topology '{}'; cancelling it on {}: {}", failed.id(), topology,
                    toCancel.stream().map(RegisteredHost::id).toList(), e.getMessage());
        } else {
            LOG.warn("Deploying topology '{}' failed on host {}; cancelling it on {}", topology, failed.id(),
                    toCancel.stream().map(RegisteredHost::id).toList(), e);
        }
        List<String> unreached = toCancel.stream().filter(host -> !cancelQuietly(host, topology))
                .map(host -> host.id().value()).toList();
        List<String> cancelled = deployed.stream().map(host -> host.id().value())
                .filter(host -> !unreached.contains(host)).toList();
        String rollback = (deployed.isEmpty() ? " No host had accepted it."
                : cancelled.isEmpty() ? "" : " It was cancelled on " + cancelled + ", which had accepted it.")
                + (unreached.isEmpty() ? "" : " Hosts " + unreached + " could not be reached to cancel it; each drops"
                        + " what it started of it itself after its steadfast.host.unknown-topology-grace.");
        if (e.refused()) {
            return new TopologyException(Reason.HOST_REFUSED, "Topology '" + topology + "' was not deployed. "
                    + e.getMessage() + "." + rollback, e);
        }
        return new TopologyException(Reason.HOST_FAILED, "Topology '" + topology + "' was not deployed: host "
                + failed.id() + " failed. " + e.getMessage() + rollback, e);
    }

    /**
     * Cancels a topology on every host that runs part of it (hosts that fail are logged) and forgets it.
     *
     * @throws TopologyException if the topology is unknown
     */
    public synchronized void cancel(TopologyId id) {
        DeployedTopology topology = topologies.find(id).orElseThrow(() -> notFound(id));
        for (HostId hostId : topology.hosts()) {
            failureDetector.host(hostId).ifPresentOrElse(host -> cancelQuietly(host, id),
                    () -> LOG.warn("Host {} of topology '{}' is no longer registered; not cancelling there", hostId, id));
        }
        topologies.remove(id);
        LOG.info("Cancelled topology '{}'", id);
    }

    /** @return whether the host answered the cancel */
    private boolean cancelQuietly(RegisteredHost host, TopologyId topology) {
        try {
            hostClient.cancel(host, topology);
            return true;
        } catch (HostCallException e) {
            LOG.warn("Could not cancel topology '{}' on host {}: {}", topology, host.id(), e.getMessage());
            return false;
        }
    }

    static TopologyException notFound(TopologyId id) {
        return new TopologyException(Reason.NOT_FOUND, "Topology '" + id + "' is not deployed; see GET "
                + "/api/v1/topologies for the deployed ones");
    }
}
