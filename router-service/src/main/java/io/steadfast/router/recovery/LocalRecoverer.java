package io.steadfast.router.recovery;

import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.router.host.CatchUp;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.InPlaceRecovery;
import io.steadfast.router.host.Redirected;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's part in a local recovery: the lost tasks of a topology restore in place on other hosts, on the same
 * epoch, while every other task keeps running. In order:
 * <ol>
 * <li>the lost tasks are spread round robin over the standby hosts of their kind (voters for vote tasks, PE hosts
 * for the others), or over the least loaded live hosts of that kind if no such standby is live ({@link #targets});</li>
 * <li>the new placement is recorded first, in memory (a host's heartbeat view must include the tasks it is about to
 * start, or it would cancel them; the durable copy follows behind);</li>
 * <li>at once and in parallel, each target host is asked to recover its share ({@code POST .../recoveries}): it
 * fetches the snapshots of the checkpoint from the checkpoint-service and the tasks' logged decisions from the live
 * hosts that ran tasks of the topology; and each of those hosts points its channels at the moved tasks
 * ({@code POST .../redirects}): the
 * upstream ones replay their output logs from the position each moved task restored (a channel that is not open
 * yet on the target host answers the upstream's SYNC the moment it opens), and answer what they had sent;</li>
 * <li>once both are done, the target hosts get those heads as their tasks' catch-up targets, and what each host
 * answered it holds of the lost tasks' decisions: a target host that fetched them ahead while the failure was being
 * confirmed ({@link #prefetch}) uses what it fetched from every peer that still holds the same, and asks only the
 * others again.</li>
 * </ol>
 * Any refusal fails the local recovery with a reason; {@link LocalRecovery} then falls back to a global one.
 * Checkpointing of the topology must be paused meanwhile: a checkpoint completing during the recovery would truncate
 * output logs past the restored position.
 */
final class LocalRecoverer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRecoverer.class);
    private final TopologyRepository topologies;
    private final HostClient hostClient;
    private final StandbyHosts standby;
    private final Clock clock;
    private final ExecutorService calls = Executors.newCachedThreadPool(new DaemonThreads("steadfast-router-local-recovery"));

    LocalRecoverer(TopologyRepository topologies, HostClient hostClient, StandbyHosts standby, Clock clock) {
        this.topologies = topologies;
        this.hostClient = hostClient;
        this.standby = standby;
        this.clock = clock;
    }

    /** A local recovery that could not be carried through; {@link #getMessage()} says why, for people. */
    static final class LocalRecoveryFailedException extends RuntimeException {
        LocalRecoveryFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Recovers {@code lost} in place from checkpoint {@code checkpointId}.
     *
     * @param live the live hosts (none of them runs a lost task)
     * @return the measurements (replayed records and bytes are known later, once the tasks caught up)
     * @throws LocalRecoveryFailedException if a host refused or could not be reached
     */
    LocalRecoveryMeasures recover(DeployedTopology topology, List<TaskId> lost, long checkpointId,
                                  long latestTriggered, List<RegisteredHost> live) {
        return recover(topology, lost, checkpointId, latestTriggered, live, null);
    }

    /**
     * As {@link #recover(DeployedTopology, List, long, long, List)}, every lost task restarted on {@code onto} if not
     * null (a live host whose tasks failed: they restart in place), else spread as usual.
     */
    LocalRecoveryMeasures recover(DeployedTopology topology, List<TaskId> lost, long checkpointId,
                                  long latestTriggered, List<RegisteredHost> live, @Nullable HostId onto) {
        List<RegisteredHost> standbys = standby.among(live, topologies.all());
        Map<HostId, List<TaskId>> byTarget = onto == null ? byTarget(topology, lost, live, standbys)
                : Map.of(onto, List.copyOf(lost));
        List<TaskId> unplaced = lost.stream().filter(task -> byTarget.values().stream()
                .noneMatch(tasks -> tasks.contains(task))).toList();
        if (!unplaced.isEmpty()) {
            throw new LocalRecoveryFailedException("no LIVE host of the kind lost tasks " + unplaced + " need", null);
        }
        DeployedTopology recovered = topology.recovered(topology.plan(), placementAfter(topology, byTarget), lost);
        topologies.replaceWithoutWaiting(recovered);
        try {
            return recoverOn(topology, recovered, lost, checkpointId, latestTriggered, live, byTarget, standbys);
        } catch (RuntimeException e) {
            topologies.replace(topology); // the global recovery that follows starts from the placement it had
            throw e instanceof LocalRecoveryFailedException failed ? failed
                    : new LocalRecoveryFailedException(e.getMessage(), e);
        }
    }

    /**
     * @param topology  the topology as it was at the failure
     * @param recovered the topology as it is after the recovery: lost tasks placed anew, as new incarnations
     */
    private LocalRecoveryMeasures recoverOn(DeployedTopology topology, DeployedTopology recovered, List<TaskId> lost,
                                            long checkpointId, long latestTriggered, List<RegisteredHost> live,
                                            Map<HostId, List<TaskId>> byTarget, List<RegisteredHost> standbys) {
        ExecutionPlan plan = topology.plan();
        Map<TaskId, HostId> placement = recovered.placement();
        Map<HostId, RegisteredHost> byId = new TreeMap<>();
        live.forEach(host -> byId.put(host.id(), host));
        Instant requestedAt = clock.instant();
        long start = System.nanoTime();
        TaskPlacement taskPlacement = taskPlacement(recovered, byId);
        Map<HostId, String> endpoints = taskPlacement.endpoints();
        List<RegisteredHost> ranTasks = ranTasksOf(topology, live);
        List<URI> peers = ranTasks.stream().map(RegisteredHost::controlUrl).toList();
        String recovery = UUID.randomUUID().toString();
        // the redirects first: their answers, passed on to the targets, confirm the decisions every recovered task
        // waits for at the end of those it replays
        Map<TaskId, String> newEndpoints = new TreeMap<>();
        Map<String, HostId> newHosts = new TreeMap<>();
        Map<TaskId, Integer> incarnations = new TreeMap<>();
        lost.forEach(task -> {
            HostId target = placement.get(task);
            newEndpoints.put(task, endpoints.get(target));
            newHosts.put(endpoints.get(target), target);
            incarnations.put(task, recovered.incarnationOf(task));
        });
        Map<RegisteredHost, CompletableFuture<Redirected>> redirects = new LinkedHashMap<>();
        ranTasks.forEach(host -> redirects.put(host, CompletableFuture.supplyAsync(() ->
                hostClient.redirect(host, topology.id(), newEndpoints, newHosts, incarnations), calls)));
        Map<HostId, CompletableFuture<InPlaceRecoveryResponse>> answers = new LinkedHashMap<>();
        byTarget.forEach((hostId, tasks) -> answers.put(hostId, CompletableFuture.supplyAsync(() ->
                hostClient.recoverInPlace(byId.get(hostId), new InPlaceRecovery(plan, taskPlacement, tasks,
                        new InPlaceRecovery.Checkpoints(checkpointId, latestTriggered), peers, lost, requestedAt,
                        recovery)), calls)));
        Map<HostId, Map<ChannelId, Long>> targetsByHost = new TreeMap<>();
        Map<URI, Map<TaskId, DecisionSpan>> heldDecisions = new LinkedHashMap<>();
        redirects.forEach((host, redirect) -> {
            Redirected answer = await(redirect);
            answer.heads().forEach((channel, head) -> plan.channel(channel).ifPresent(spec ->
                    targetsByHost.computeIfAbsent(placement.get(spec.to()), target -> new TreeMap<>())
                            .put(channel, head)));
            heldDecisions.put(host.controlUrl(), answer.heldDecisions());
        });
        long redirected = System.nanoTime();
        // at once, not after the target hosts answered: a host keeps the targets of tasks it is still creating, and
        // its tasks' decisions fetched ahead wait for the spans
        List<CompletableFuture<Void>> targets = new ArrayList<>();
        byTarget.keySet().forEach(hostId -> targets.add(CompletableFuture.runAsync(() -> hostClient.catchUpTargets(
                byId.get(hostId), topology.id(), new CatchUp(recovery, targetsByHost.getOrDefault(hostId, Map.of()),
                        heldDecisions)), calls)));
        List<InPlaceRecoveryResponse> done = new ArrayList<>();
        answers.values().forEach(answer -> done.add(await(answer)));
        long answered = System.nanoTime();
        targets.forEach(LocalRecoverer::await);
        LOG.info("Recovered {} lost tasks of '{}' in place from checkpoint {} on {}: channels redirected and"
                + " catch-up targets sent in {} ms, target hosts answered in {} ms, targets taken {} ms later",
                lost.size(), topology.id(), checkpointId, byTarget.keySet(), millis(redirected - start),
                millis(answered - start), millis(System.nanoTime() - answered));
        Map<String, String> placedOn = new TreeMap<>();
        lost.forEach(task -> placedOn.put(task.toString(), placement.get(task).value()));
        return LocalRecoveryMeasures.restored(requestedAt, placedOn, (int) byTarget.keySet().stream()
                .filter(host -> standbys.stream().anyMatch(s -> s.id().equals(host))).count(),
                new LocalRecoveryMeasures.TargetHosts(
                        done.stream().mapToLong(InPlaceRecoveryResponse::snapshotMillis).max().orElse(0),
                        done.stream().mapToLong(InPlaceRecoveryResponse::decisionMillis).max().orElse(0),
                        done.stream().mapToLong(InPlaceRecoveryResponse::startMillis).max().orElse(0),
                        done.stream().mapToLong(InPlaceRecoveryResponse::decisionBytes).sum()));
    }

    /**
     * Asks the hosts that would recover {@code lost} now (with the same live hosts, the same ones {@link #recover}
     * picks) to fetch their snapshots in each of {@code checkpointIds} ahead, and the lost tasks' logged decisions
     * once if asked, while the failure of their host is being confirmed, and to prepare the tasks for the placement
     * {@link #recover} would give them; returns at once. A host that cannot is skipped: the recovery fetches them
     * itself (and makes the tasks itself if the placement turns out otherwise).
     *
     * @param checkpointIds the checkpoints the recovery may restore from (the latest completed, and any pending one
     *                      that may complete meanwhile)
     * @param live          the live hosts, the suspected one left out
     * @param decisions     whether the lost tasks' decisions are fetched ahead too (once per suspicion)
     */
    void prefetch(DeployedTopology topology, List<TaskId> lost, List<Long> checkpointIds, List<RegisteredHost> live,
                  boolean decisions) {
        Map<HostId, RegisteredHost> byId = new TreeMap<>();
        live.forEach(host -> byId.put(host.id(), host));
        List<URI> peers = decisions ? ranTasksOf(topology, live).stream().map(RegisteredHost::controlUrl).toList()
                : List.of();
        Map<HostId, List<TaskId>> byTarget = byTarget(topology, lost, live, standby.among(live, topologies.all()));
        DeployedTopology after = topology.recovered(topology.plan(), placementAfter(topology, byTarget), lost);
        // a task on a host that is not live (another failure being recovered): the recovery's placement is not known
        TaskPlacement placement = byId.keySet().containsAll(after.placement().values()) ? taskPlacement(after, byId)
                : null;
        byTarget.forEach((host, tasks) -> calls.execute(() -> {
            for (int i = 0; i < checkpointIds.size(); i++) {
                try {
                    hostClient.prefetchSnapshots(byId.get(host), topology.id(), checkpointIds.get(i), tasks,
                            i == 0 ? peers : List.of(), placement);
                } catch (RuntimeException e) {
                    LOG.debug("Host {} did not take the prefetch of {} in checkpoint {}: {}", host, tasks,
                            checkpointIds.get(i), e.getMessage());
                }
            }
        }));
    }

    /** Where every task of the topology runs once {@code byTarget} recovered the lost ones. */
    private static Map<TaskId, HostId> placementAfter(DeployedTopology topology, Map<HostId, List<TaskId>> byTarget) {
        Map<TaskId, HostId> placement = new TreeMap<>(topology.placement());
        byTarget.forEach((host, tasks) -> tasks.forEach(task -> placement.put(task, host)));
        return placement;
    }

    /** The topology's placement with the data-plane endpoint of each of its hosts, all among {@code live}. */
    private static TaskPlacement taskPlacement(DeployedTopology topology, Map<HostId, RegisteredHost> live) {
        Map<HostId, String> endpoints = new TreeMap<>();
        topology.placement().values().forEach(host -> endpoints.put(host, live.get(host).dataEndpoint()));
        return new TaskPlacement(topology.placement(), endpoints, topology.incarnations());
    }

    /**
     * The live hosts that ran tasks of the topology before the failure: the only ones with channels towards the lost
     * tasks to redirect, and the only ones that can hold the lost tasks' logged decisions (those travel in the frames
     * of the lost tasks' output channels, to tasks of the topology). A standby taking over lost tasks is neither
     * redirected nor asked: it has no channel to point elsewhere and holds nothing, and it is the busiest host then.
     */
    private static List<RegisteredHost> ranTasksOf(DeployedTopology topology, List<RegisteredHost> live) {
        return live.stream().filter(host -> topology.placement().containsValue(host.id())).toList();
    }

    /**
     * The lost tasks by the host to recover them: of each kind, round robin over the {@link #targets} of that kind (a
     * lost vote task goes to a voter, any other to a PE host). Tasks of a kind no live host is are left out.
     */
    private Map<HostId, List<TaskId>> byTarget(DeployedTopology topology, List<TaskId> lost,
                                               List<RegisteredHost> live, List<RegisteredHost> standbys) {
        Map<HostKind, List<TaskId>> lostByKind = new EnumMap<>(HostKind.class);
        lost.forEach(task -> lostByKind.computeIfAbsent(topology.plan().task(task).map(TaskSpec::hostKind)
                .orElse(HostKind.PE), kind -> new ArrayList<>()).add(task));
        Map<HostId, List<TaskId>> byTarget = new LinkedHashMap<>();
        lostByKind.forEach((kind, tasks) -> {
            List<RegisteredHost> targets = targets(ofKind(live, kind), ofKind(standbys, kind), tasks.size());
            for (int i = 0; i < tasks.size() && !targets.isEmpty(); i++) {
                byTarget.computeIfAbsent(targets.get(i % targets.size()).id(), host -> new ArrayList<>())
                        .add(tasks.get(i));
            }
        });
        return byTarget;
    }

    private static List<RegisteredHost> ofKind(List<RegisteredHost> hosts, HostKind kind) {
        return hosts.stream().filter(host -> host.kind() == kind).toList();
    }

    /**
     * The standby hosts, however many tasks were lost; without a standby, one least loaded live host per lost task.
     * A standby takes the place of the failed host: the live hosts keep their own load, and the lost tasks' channels
     * among themselves stay within one process, which restores and catches up faster than sharing them out (see
     * docs/performance.md). All of one kind; none if no host of that kind is live.
     */
    private List<RegisteredHost> targets(List<RegisteredHost> live, List<RegisteredHost> standbys, int lost) {
        return standbys.isEmpty() ? leastLoaded(live, lost) : standbys;
    }

    private List<RegisteredHost> leastLoaded(List<RegisteredHost> live, int tasks) {
        Map<HostId, Integer> load = StandbyHosts.load(live.stream().map(RegisteredHost::id).toList(),
                topologies.all(), null);
        return live.stream().sorted(Comparator.<RegisteredHost>comparingInt(host -> load.get(host.id()))
                .thenComparing(host -> host.id().value())).limit(Math.max(1, tasks)).toList();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    private static <T> T await(CompletableFuture<T> call) {
        try {
            return call.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            String message = cause instanceof HostCallException ? cause.getMessage() : String.valueOf(cause);
            throw new LocalRecoveryFailedException(message, cause);
        }
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
