package io.steadfast.router;

import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import static org.awaitility.Awaitility.await;

import io.steadfast.router.host.CatchUp;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.InPlaceRecovery;
import io.steadfast.router.host.Redirected;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A {@link HostClient} that records calls, keeps state values per task, and fails for chosen hosts. */
public final class FakeHostClient implements HostClient {

    /** The incarnations each redirect named, by {@code topology@host}. */
    public final Map<String, Map<TaskId, Integer>> redirectIncarnations = new java.util.concurrent.ConcurrentHashMap<>();
    public final List<String> deployed = new CopyOnWriteArrayList<>();
    public final List<String> cancelled = new CopyOnWriteArrayList<>();
    /** {@code topology@host:epoch:restore} for each deployment; restore is {@code -} when none. */
    public final List<String> deployments = new CopyOnWriteArrayList<>();
    /** {@code topology@host:checkpointId} for each trigger. */
    public final List<String> triggers = new CopyOnWriteArrayList<>();
    /** {@code topology@host:tasks:checkpointId} for each in-place recovery. */
    public final List<String> recoveries = new CopyOnWriteArrayList<>();
    /** {@code topology@host:tasks} for each redirect. */
    public final List<String> redirects = new CopyOnWriteArrayList<>();
    /** {@code topology@host:tasks:checkpointId} for each snapshot prefetch. */
    public final List<String> prefetches = new CopyOnWriteArrayList<>();
    /** {@code topology@host:checkpointId} for each completion notice. */
    public final List<String> completions = new CopyOnWriteArrayList<>();
    /** {@code topology@host:heads} for each call setting catch-up targets. */
    public final List<String> catchUpTargetCalls = new CopyOnWriteArrayList<>();
    /** What every redirect answers: the heads of channels, by channel id. */
    public final Map<ChannelId, Long> redirectHeads = new ConcurrentHashMap<>();
    /** What a host's redirect answers it holds of the moved tasks' decisions (nothing if not given). */
    public final Map<HostId, Map<TaskId, DecisionSpan>> heldDecisions = new ConcurrentHashMap<>();
    /** The peers named in each snapshot prefetch (asked for the lost tasks' decisions), by prefetch as listed. */
    public final Map<String, List<URI>> prefetchPeers = new ConcurrentHashMap<>();
    /** The placement each prefetch would prepare its tasks for, by prefetch (as in {@code prefetches}). */
    public final Map<String, TaskPlacement> prefetchPlacements = new ConcurrentHashMap<>();
    /** The hosts named with each redirect, by topology@host. */
    public final Map<String, Map<String, HostId>> redirectHosts = new ConcurrentHashMap<>();
    /** The placement of each recovery, by recovery (as in {@code recoveries}). */
    public final Map<String, TaskPlacement> recoveryPlacements = new ConcurrentHashMap<>();
    /** The recovery id of each in-place recovery, by the host asked. */
    public final Map<HostId, String> recoveryIds = new ConcurrentHashMap<>();
    /** The last catch-up each host was sent. */
    public final Map<HostId, CatchUp> catchUps = new ConcurrentHashMap<>();
    /** How long an in-place recovery waits for its host's catch-up targets before it answers (zero: not at all). */
    public volatile Duration recoveryWaitsForTargets = Duration.ZERO;
    /** The hosts whose in-place recovery had its catch-up targets before it answered. */
    public final List<String> recoveriesAnsweredAfterTargets = new CopyOnWriteArrayList<>();
    public final Set<HostId> failing = ConcurrentHashMap.newKeySet();
    /** Hosts that refuse every deployment as a host over its limits does: 409 with this problem detail. */
    public final Map<HostId, String> refusingDeployments = new ConcurrentHashMap<>();
    public final Map<TaskId, Map<String, Object>> state = new ConcurrentHashMap<>();
    private final Map<String, Object> taskState = new ConcurrentHashMap<>();

    public void reset() {
        deployed.clear();
        deployments.clear();
        triggers.clear();
        cancelled.clear();
        recoveries.clear();
        redirects.clear();
        completions.clear();
        catchUpTargetCalls.clear();
        redirectHeads.clear();
        heldDecisions.clear();
        prefetchPeers.clear();
        prefetchPlacements.clear();
        recoveryPlacements.clear();
        redirectHosts.clear();
        recoveryIds.clear();
        catchUps.clear();
        recoveryWaitsForTargets = Duration.ZERO;
        recoveriesAnsweredAfterTargets.clear();
        failing.clear();
        refusingDeployments.clear();
        state.clear();
    }

    @Override
    public void deploy(RegisteredHost host, ExecutionPlan plan, TaskPlacement placement, OptionalLong restoreFrom) {
        failIfFailing(host);
        String refusal = refusingDeployments.get(host.id());
        if (refusal != null) {
            JsonNode problem = JsonMapper.builder().build().readTree(refusal);
            throw new HostCallException(host.id(), "Host " + host.id() + " refused to deploy topology '"
                    + plan.topology() + "': HTTP 409 " + problem.path("detail").asString(), null, 409, problem);
        }
        deployed.add(plan.topology() + "@" + host.id());
        deployments.add(plan.topology() + "@" + host.id() + ":" + plan.epoch() + ":"
                + (restoreFrom.isPresent() ? restoreFrom.getAsLong() : "-"));
    }

    @Override
    public void triggerCheckpoint(RegisteredHost host, TopologyId topology, long checkpointId) {
        failIfFailing(host);
        triggers.add(topology + "@" + host.id() + ":" + checkpointId);
    }

    @Override
    public InPlaceRecoveryResponse recoverInPlace(RegisteredHost host, InPlaceRecovery recovery) {
        failIfFailing(host);
        recoveries.add(recovery.plan().topology() + "@" + host.id() + ":" + recovery.tasks() + ":"
                + recovery.checkpointId());
        recoveryPlacements.put(recovery.plan().topology() + "@" + host.id() + ":" + recovery.tasks() + ":"
                + recovery.checkpointId(), recovery.placement());
        recoveryIds.put(host.id(), recovery.recovery());
        if (!recoveryWaitsForTargets.isZero()) {
            String targetsHere = recovery.plan().topology() + "@" + host.id() + ":";
            try {
                await().atMost(recoveryWaitsForTargets).until(() -> catchUpTargetCalls.stream()
                        .anyMatch(call -> call.startsWith(targetsHere)));
                recoveriesAnsweredAfterTargets.add(host.id().value());
            } catch (ConditionTimeoutException e) {
                // answers without them, as a host does whose targets come later
            }
        }
        return new InPlaceRecoveryResponse(recovery.tasks(), 0, 1, 1, 1);
    }

    @Override
    public void prefetchSnapshots(RegisteredHost host, TopologyId topology, long checkpointId, List<TaskId> tasks,
                                  List<URI> peers, TaskPlacement placement) {
        failIfFailing(host);
        String prefetch = topology + "@" + host.id() + ":" + tasks + ":" + checkpointId;
        prefetchPeers.put(prefetch, List.copyOf(peers));
        if (placement != null) {
            prefetchPlacements.put(prefetch, placement);
        }
        prefetches.add(prefetch);
    }

    @Override
    public Redirected redirect(RegisteredHost host, TopologyId topology, Map<TaskId, String> newEndpoints,
                               Map<String, HostId> hosts, Map<TaskId, Integer> incarnations) {
        failIfFailing(host);
        redirectIncarnations.put(topology + "@" + host.id(), Map.copyOf(incarnations));
        redirects.add(topology + "@" + host.id() + ":" + new java.util.TreeSet<>(newEndpoints.keySet()));
        redirectHosts.put(topology + "@" + host.id(), Map.copyOf(hosts));
        return new Redirected(redirectHeads, heldDecisions.getOrDefault(host.id(), Map.of()));
    }

    @Override
    public void catchUpTargets(RegisteredHost host, TopologyId topology, CatchUp catchUp) {
        failIfFailing(host);
        catchUps.put(host.id(), catchUp);
        catchUpTargetCalls.add(topology + "@" + host.id() + ":" + new TreeMap<>(catchUp.heads()));
    }

    @Override
    public void checkpointCompleted(RegisteredHost host, TopologyId topology, long checkpointId) {
        failIfFailing(host);
        completions.add(topology + "@" + host.id() + ":" + checkpointId);
    }

    @Override
    public void cancel(RegisteredHost host, TopologyId topology) {
        cancelled.add(topology + "@" + host.id());
    }

    @Override
    public Optional<Object> queryKey(RegisteredHost host, TaskId task, String stateName, String key) {
        failIfFailing(host);
        return Optional.ofNullable(state.getOrDefault(task, Map.of()).get(key));
    }

    @Override
    public Map<String, Object> queryAll(RegisteredHost host, TaskId task, String stateName, int limit) {
        failIfFailing(host);
        return state.getOrDefault(task, Map.of());
    }

    @Override
    public Optional<Object> queryTaskState(RegisteredHost host, TaskId task, String stateName) {
        failIfFailing(host);
        return Optional.ofNullable(taskState.get(task + "/" + stateName));
    }

    /** Makes {@code task} hold {@code value} as its task state {@code stateName}. */
    public void putTaskState(TaskId task, String stateName, Object value) {
        taskState.put(task + "/" + stateName, value);
    }

    private void failIfFailing(RegisteredHost host) {
        if (failing.contains(host.id())) {
            throw new HostCallException(host.id(), "Host " + host.id() + " could not deploy: connection refused", null);
        }
    }
}
