package io.steadfast.host.warmup;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.web.DeploymentRequest;
import io.steadfast.runtime.host.TaskPlacement;
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
import java.util.LinkedHashMap;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * Rehearses local recoveries on this host a few times over, through its own HTTP API as the router drives them, so
 * that what a recovery runs first is loaded, linked and compiled before a real one needs it. A freshly started
 * standby took 100-130 ms to start four recovered tasks of a 32-task job where hosts that had recovered tasks before
 * took 10-35 ms; once this warm-up recovered in process only, a standby still spent 16-43 ms taking snapshots it had
 * fetched ahead (first calls of the request's success path: linking record methods, building the answer's JSON
 * writer, creating the request meters) where a live host spent 0-1 ms.
 *
 * <p>Each round deploys a 32-task word count here (at a new epoch) and completes a checkpoint of it whose snapshots
 * {@link WarmUpSnapshots} keeps; asks this host to fetch them ahead with the decisions its peer (itself) holds, as on
 * a suspicion; cancels every task; asks for their recovery in place, confirms the decisions fetched ahead as the
 * router's catch-up message does, and lets the recovered job finish. Nothing leaves the host: the router and the
 * checkpoint-service never hear of the job.
 */
final class InPlaceRecoveryWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(InPlaceRecoveryWarmUp.class);
    static final TopologyId TOPOLOGY = TopologyId.of("steadfast-warm-up-recovery");
    /** Rounds: enough for the per-task and per-channel code to be compiled, a few seconds on two busy cores. */
    static final int ROUNDS = 4;
    private static final Duration STEP_LIMIT = Duration.ofSeconds(10);
    private static final String JOB = """
            {"id": "%s", "recovery": {"mode": "LOCAL"}, "operators": [
              {"id": "source", "type": "generator", "parallelism": 8,
               "config": {"count": 2000, "keys": 1000, "ratePerSecond": 5000}},
              {"id": "count", "type": "keyed-count", "parallelism": 16, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "parallelism": 8, "inputs": [{"from": "count"}]}
            ]}""".formatted(TOPOLOGY);

    private final ProcessingNode node;
    private final WarmUpSnapshots snapshots;
    private final TaskWaits waits;
    private final String self;
    private final URI api;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /** @param self this host's base URL, as the router and its peers call it */
    InPlaceRecoveryWarmUp(ProcessingNode node, WarmUpSnapshots snapshots, URI self) {
        this.node = node;
        this.snapshots = snapshots;
        this.waits = new TaskWaits(node);
        this.self = self.toString();
        this.api = URI.create(this.self + "/api/v1/deployments/" + TOPOLOGY + "/");
    }

    /**
     * Runs the rounds; stops early, quietly, at a round that does not go through (logged at debug).
     *
     * @return the rounds recovered
     */
    int run() throws InterruptedException {
        long start = System.nanoTime();
        ExecutionPlan first = PlanExpander.expand(new TopologySpecReader().read(JOB));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        first.tasks().forEach(task -> hosts.put(task.id(), node.id()));
        TaskPlacement placement = new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint()));
        Set<TaskId> tasks = new TreeSet<>(hosts.keySet());
        int recovered = 0;
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                if (!recoverOnce(first.withEpoch(round), placement, tasks, round)) {
                    break;
                }
                recovered++;
            }
        } catch (RuntimeException e) {
            LOG.debug("The in-place recovery warm-up stopped: {}", e.toString());
        } finally {
            cancel();
            snapshots.drop(TOPOLOGY);
        }
        LOG.info("Warmed up recovery in place with {} of {} rounds of a {}-task job in {} ms", recovered, ROUNDS,
                tasks.size(), (System.nanoTime() - start) / 1_000_000);
        return recovered;
    }

    private boolean recoverOnce(ExecutionPlan plan, TaskPlacement placement, Set<TaskId> tasks, long checkpointId)
            throws InterruptedException {
        snapshots.keep(TOPOLOGY);
        node.deploy(plan, placement);
        if (!node.triggerCheckpoint(TOPOLOGY, checkpointId)
                || !TaskWaits.holdsWithin(() -> snapshots.of(TOPOLOGY).size() == tasks.size(), STEP_LIMIT)) {
            LOG.debug("The warm-up job's checkpoint {} did not complete", checkpointId);
            return false;
        }
        node.checkpointCompleted(TOPOLOGY, checkpointId);
        List<String> all = tasks.stream().map(TaskId::toString).toList();
        String recovery = TOPOLOGY + "-" + checkpointId;
        try {
            expect(202, post("snapshot-prefetches", Map.of("checkpointId", checkpointId, "tasks", all,
                    "peers", List.of(self))).join());
            cancel(); // every task of the job is lost
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("plan", plan);
            request.put("placement", DeploymentRequest.Placement.of(placement));
            request.put("tasks", all);
            request.put("checkpointId", checkpointId);
            request.put("latestTriggered", checkpointId);
            request.put("peers", List.of(self));
            request.put("recovering", all);
            request.put("requestedAt", Instant.now().toString());
            request.put("recovery", recovery);
            CompletableFuture<HttpResponse<String>> recovered = post("recoveries", request);
            // what the router sends once the live hosts answered its redirects: here, that its only peer holds nothing
            expect(202, post("catch-up-targets", Map.of("heads", Map.of(), "recovery", recovery,
                    "heldDeterminants", Map.of(self, Map.of()))).join());
            expect(201, recovered.get(STEP_LIMIT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.debug("The warm-up job's recovery from checkpoint {} did not go through: {}", checkpointId,
                    e.toString());
            return false;
        }
        boolean finished = waits.finishWithin(TOPOLOGY, STEP_LIMIT);
        cancel();
        if (!finished) {
            LOG.debug("The warm-up job recovered from checkpoint {} did not finish", checkpointId);
        }
        return finished;
    }

    private CompletableFuture<HttpResponse<String>> post(String path, Object body) {
        return http.sendAsync(HttpRequest.newBuilder(api.resolve(path)).timeout(STEP_LIMIT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JsonMapper.shared().writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.request().method() + " " + response.uri() + " answered "
                    + response.statusCode() + " instead of " + status + ": " + response.body());
        }
    }

    private void cancel() {
        node.cancel(TOPOLOGY);
    }
}
