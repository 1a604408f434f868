package io.steadfast.host.warmup;

import io.steadfast.host.config.ServiceClients;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.protocol.host.CatchUpTargets;
import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import io.steadfast.protocol.host.InPlaceRecoveryResponse;
import io.steadfast.protocol.host.Placement;
import io.steadfast.protocol.host.RedirectRequest;
import io.steadfast.protocol.host.RedirectResponse;
import io.steadfast.protocol.host.SnapshotPrefetchRequest;
import io.steadfast.protocol.registration.Heartbeat;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rehearses local recoveries on this host a few times over, through its own HTTP API as the router drives them, so
 * that what a recovery runs first is loaded, linked and compiled before a real one needs it: a cold standby runs
 * those paths in the interpreter and the JIT compilers, and spends several times as long on its first recovery as a
 * host that recovered tasks before (docs/performance.md has the figures). It goes through the HTTP API, not only in
 * process, so that the request's success path (record methods linked, the answer's JSON writer built, the request
 * meters created) is warm too.
 *
 * <p>Each round runs a 32-task word count across this host and a rehearsal peer (a second runtime in this process,
 * with a data plane of its own: {@link ProcessingNode#rehearsalPeer}), which runs every third subtask of each
 * operator, as a host of a three-host cluster does; completes a checkpoint of it, whose snapshots
 * {@link WarmUpSnapshots} keeps; and then plays the router through a failure of the peer. It cancels the peer's
 * tasks, asks this host to fetch their snapshots ahead with the decisions its peers (itself) hold and the placement
 * the recovery will have, as on a suspicion, waits until it has prepared the tasks ahead, asks for their recovery in
 * place, redirects this host's channels to the recovered tasks as a live host's, passes the heads and held decisions
 * it answers on as the catch-up targets, and lets the job finish. So a real recovery's paths on both sides run here
 * first: a standby's (tasks prepared ahead, their input replayed over the data plane from live hosts' logs, in the
 * order of the decisions a live host held) and a live host's (redirects, resends, the decisions it received with its
 * input). Nothing leaves the host: the router and the checkpoint-service never hear of the job.
 */
final class InPlaceRecoveryWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceRecoveryWarmUp.class);
    static final TopologyId TOPOLOGY = TopologyId.of("steadfast-warm-up-recovery");
    /** Rounds: enough for the per-task and per-channel code to be compiled, a few seconds on two busy cores. */
    static final int ROUNDS = 4;
    /** The peer runs the subtasks whose index leaves this remainder divided by three. */
    private static final int PEER_SHARE = 3;
    private static final Duration STEP_LIMIT = Duration.ofSeconds(10);
    /** How long a round waits for its tasks to be prepared ahead, as a standby's are during a suspicion. */
    private static final Duration PREPARE_LIMIT = Duration.ofSeconds(2);
    /**
     * How long after a round's plan is made its sources start: both runtimes have deployed by then, so no frame
     * reaches a receiver that is not open yet (which the data plane drops with a warning).
     */
    private static final long START_DELAY_MILLIS = 200;
    /** Records this host's tasks take in after the checkpoint before the peer fails. */
    private static final long RECORDS_AFTER_CHECKPOINT = 1_000;
    private static final String JOB = """
            {"id": "%s", "recovery": {"mode": "LOCAL"}, "operators": [
              {"id": "source", "type": "generator", "parallelism": 8,
               "config": {"count": 2000, "keys": 1000, "ratePerSecond": 5000, "pacedSince": %d}},
              {"id": "count", "type": "keyed-count", "parallelism": 16, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "parallelism": 8, "inputs": [{"from": "count"}]}
            ]}""";

    private final ProcessingNode node;
    private final WarmUpSnapshots snapshots;
    private final TaskWaits waits;
    private final URI self;
    private final URI api;
    /** Bytes of logged decisions the rounds' recoveries collected from this host as the live peer, for the tests. */
    private long decisionBytes;
    /** Bytes of the heartbeats with catch-up reports the rounds wrote. */
    private long heartbeatBytes;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** @param self this host's base URL, as the router and its peers call it */
    InPlaceRecoveryWarmUp(ProcessingNode node, WarmUpSnapshots snapshots, URI self) {
        this.node = node;
        this.snapshots = snapshots;
        this.waits = new TaskWaits(node);
        this.self = self;
        this.api = URI.create(self + "/api/v1/deployments/" + TOPOLOGY + "/");
    }

    /**
     * Runs the rounds; stops early, quietly, at a round that does not go through (logged at debug).
     *
     * @return the rounds recovered
     */
    int run() throws InterruptedException {
        long start = System.nanoTime();
        ExecutionPlan first = plan(0);
        HostRuntime peer = node.rehearsalPeer(snapshots);
        Map<TaskId, HostId> hosts = new TreeMap<>();
        first.tasks().forEach(task -> hosts.put(task.id(),
                task.id().subtask() % PEER_SHARE == 1 ? peer.id() : node.id()));
        TaskPlacement shared = new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint(),
                peer.id(), peer.dataEndpoint()));
        Set<TaskId> lost = new TreeSet<>();
        hosts.forEach((task, host) -> {
            if (host.equals(peer.id())) {
                lost.add(task);
            }
        });
        Map<TaskId, HostId> afterwards = new TreeMap<>();
        hosts.keySet().forEach(task -> afterwards.put(task, node.id()));
        TaskPlacement recovered = new TaskPlacement(afterwards, Map.of(node.id(), node.dataEndpoint()));
        int rounds = 0;
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                if (!recoverOnce(plan(round), peer, shared, recovered, lost, round)) {
                    break;
                }
                rounds++;
            }
        } catch (RuntimeException e) {
            LOG.debug("The in-place recovery warm-up stopped: {}", e.toString());
        } finally {
            cancel(peer);
            peer.close();
            snapshots.drop(TOPOLOGY);
        }
        LOG.info("Warmed up recovery in place with {} of {} rounds of a {}-task job, {} of its tasks taken over from a"
                + " rehearsal peer each time, in {} ms", rounds, ROUNDS, hosts.size(), lost.size(),
                (System.nanoTime() - start) / 1_000_000);
        return rounds;
    }

    /** The job at {@code epoch}, its sources to start {@link #START_DELAY_MILLIS} from now. */
    private static ExecutionPlan plan(int epoch) {
        return PlanExpander.expand(new TopologySpecReader().read(JOB.formatted(TOPOLOGY,
                System.currentTimeMillis() + START_DELAY_MILLIS))).withEpoch(epoch);
    }

    private boolean recoverOnce(ExecutionPlan plan, HostRuntime peer, TaskPlacement shared, TaskPlacement recovered,
                                Set<TaskId> lost, long checkpointId) throws InterruptedException {
        snapshots.keep(TOPOLOGY);
        node.deploy(plan, shared);
        peer.deploy(plan, shared);
        // records flow before the checkpoint and after it, so that the lost tasks have decisions to replay
        TaskWaits.holdsWithin(() -> recordsTakenIn() > 0, STEP_LIMIT);
        node.triggerCheckpoint(TOPOLOGY, checkpointId);
        peer.triggerCheckpoint(TOPOLOGY, checkpointId);
        if (!TaskWaits.holdsWithin(() -> snapshots.of(TOPOLOGY).size() == plan.tasks().size(), STEP_LIMIT)) {
            LOG.debug("The warm-up job's checkpoint {} did not complete", checkpointId);
            cancel(peer);
            return false;
        }
        node.checkpointCompleted(TOPOLOGY, checkpointId);
        peer.checkpointCompleted(TOPOLOGY, checkpointId);
        long atCheckpoint = recordsTakenIn();
        TaskWaits.holdsWithin(() -> recordsTakenIn() > atCheckpoint + RECORDS_AFTER_CHECKPOINT, STEP_LIMIT);
        List<TaskId> tasks = List.copyOf(lost);
        CheckpointId restored = new CheckpointId(checkpointId);
        String recovery = TOPOLOGY + "-" + checkpointId;
        try {
            peer.cancel(TOPOLOGY); // the peer's tasks are lost; its data plane stays up, as a dead host's port
            expect(202, post("snapshot-prefetches", new SnapshotPrefetchRequest(restored, tasks, List.of(self),
                    Placement.of(recovered))).join());
            if (!TaskWaits.holdsWithin(() -> lost.stream().allMatch(task -> node.preparedAhead(task, checkpointId)),
                    PREPARE_LIMIT)) {
                LOG.debug("The warm-up job's lost tasks were not all prepared ahead from checkpoint {} within {}; the"
                        + " recovery goes on without them", checkpointId, PREPARE_LIMIT);
            }
            // the plan's epoch, not the plan: this host runs tasks of the job
            InPlaceRecoveryRequest request = new InPlaceRecoveryRequest(null, plan.epoch(), Placement.of(recovered),
                    tasks, new InPlaceRecoveryRequest.Checkpoints(restored, restored), List.of(self),
                    new InPlaceRecoveryRequest.Round(tasks, Instant.now(), recovery));
            CompletableFuture<HttpResponse<String>> recovering = post("recoveries", request);
            // this host as a live host: its channels to the lost tasks now point at where they are recovered
            Map<TaskId, String> endpoints = new TreeMap<>();
            tasks.forEach(task -> endpoints.put(task, node.dataEndpoint()));
            HttpResponse<String> redirected = post("redirects", new RedirectRequest(endpoints,
                    Map.of(node.dataEndpoint(), node.id()), null)).join();
            expect(200, redirected);
            RedirectResponse answer = ServiceClients.json().readValue(redirected.body(), RedirectResponse.class);
            expect(202, post("catch-up-targets", new CatchUpTargets(answer.heads(), recovery,
                    Map.of(self, answer.heldDecisions()))).join());
            HttpResponse<String> recoveredAnswer = recovering.get(STEP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            expect(201, recoveredAnswer);
            decisionBytes += ServiceClients.json().readValue(recoveredAnswer.body(), InPlaceRecoveryResponse.class)
                    .decisionBytes();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.debug("The warm-up job's recovery from checkpoint {} did not go through: {}", checkpointId,
                    e.toString());
            cancel(peer);
            return false;
        }
        boolean finished = waits.finishWithin(TOPOLOGY, STEP_LIMIT);
        warmHeartbeat();
        cancel(peer);
        if (!finished) {
            LOG.debug("The warm-up job recovered from checkpoint {} did not finish", checkpointId);
        }
        return finished;
    }

    /**
     * Writes, without sending it, the heartbeat this host would send now, its recovered tasks' catch-up reports in it:
     * a host sends its first such heartbeat right after its first real recovery, while its tasks catch up, and Jackson
     * would build those serializers then.
     */
    private void warmHeartbeat() {
        Heartbeat heartbeat = new Heartbeat(node.taskReports(), node.deployments(), "warm-up");
        if (heartbeat.tasks().stream().anyMatch(report -> report.catchUp() != null)) {
            heartbeatBytes += ServiceClients.json().writeValueAsBytes(heartbeat).length;
        }
    }

    /** Records this host's tasks of the job have taken in. */
    private long recordsTakenIn() {
        return waits.reports(TOPOLOGY).stream().mapToLong(TaskReport::recordsIn).sum();
    }

    /** Bytes of logged decisions the recoveries of the rounds run so far took from this host, held as a live peer. */
    long heartbeatBytes() {
        return heartbeatBytes;
    }

    long decisionBytes() {
        return decisionBytes;
    }

    private CompletableFuture<HttpResponse<String>> post(String path, Object body) {
        return http.sendAsync(HttpRequest.newBuilder(api.resolve(path)).timeout(STEP_LIMIT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(ServiceClients.json().writeValueAsBytes(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.request().method() + " " + response.uri() + " answered "
                    + response.statusCode() + " instead of " + status + ": " + response.body());
        }
    }

    /** Cancels the job on this host and on the peer (either may run none of it). */
    private void cancel(HostRuntime peer) {
        node.cancel(TOPOLOGY);
        peer.cancel(TOPOLOGY);
    }
}
