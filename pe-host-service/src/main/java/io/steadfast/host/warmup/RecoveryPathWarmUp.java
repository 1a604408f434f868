package io.steadfast.host.warmup;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.registration.RegistrationGate;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Warms the paths of a local recovery once the host is up, so that a standby host's first real recovery request
 * does not pay for lazy initialisation (request mapping, JSON binding of a plan, bean validation, the snapshot
 * store client, error handling): it sends this host a few recovery, redirect, catch-up and decision requests for a
 * topology that does not run here, which are refused or find nothing to do (no snapshot, no channel, nothing held)
 * and change nothing; then it runs a small job in process, and rehearses the local recovery of a 32-task job a few
 * times through its own API ({@link InPlaceRecoveryWarmUp}). Runs on a daemon thread and gives up quietly; a cold
 * host is slower, never wrong.
 *
 * <p>The host registers with the router only once warmed up (at most {@link #REGISTRATION_WAITS_AT_MOST} after it
 * was created): a host the router knows may be asked at once to take over a failed host's tasks, and the warm-up's
 * CPU would slow every other host of the machine while they run a job.
 */
@Component
class RecoveryPathWarmUp implements ApplicationListener<ApplicationReadyEvent>, RegistrationGate {

    /** Events the in-process warm-up job counts: enough for the JIT to compile the operators' hot paths. */
    private static final long WARM_UP_EVENTS = 100_000;
    static final Duration REGISTRATION_WAITS_AT_MOST = Duration.ofSeconds(30);
    private static final String JOB = """
            {"id": "steadfast-warm-up-job", "recovery": {"mode": "GLOBAL"}, "operators": [
              {"id": "source", "type": "generator", "config": {"count": %d, "keys": 1000}},
              {"id": "count", "type": "keyed-count", "inputs": [{"from": "source", "partitioning": "key"}]},
              {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count", "partitioning": "key"}]}
            ]}""".formatted(WARM_UP_EVENTS);

    private final ProcessingNode node;
    private final WarmUpSnapshots snapshots;
    private final long createdNanos = System.nanoTime();
    private volatile boolean done;

    RecoveryPathWarmUp(ProcessingNode node, WarmUpSnapshots snapshots) {
        this.node = node;
        this.snapshots = snapshots;
    }

    @Override
    public boolean isOpen() {
        return done || System.nanoTime() - createdNanos >= REGISTRATION_WAITS_AT_MOST.toNanos();
    }

    /** Whether the warm-up ran to its end, or had nothing to warm (the registration may open before, see above). */
    boolean done() {
        return done;
    }

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryPathWarmUp.class);
    static final String TOPOLOGY = "steadfast-warm-up";
    private static final int ROUNDS = 5;
    /**
     * Recovery requests with a plan the size of a real job's (32 tasks, 256 channels), until a freshly started
     * standby reads one as fast as a live host does: fewer rounds leave its JSON binding and validation still
     * interpreted or compiling, more only delay its readiness (figures in docs/performance.md, "Constants and the
     * figures behind them"). Each round also sends the request without the plan, as the router does first (the plan
     * is fetched ahead, or the router resends the request with it).
     */
    private static final int LARGE_PLAN_ROUNDS = 60;
    /**
     * More requests without the plan, as the router sends them (cheap: refused once read): a standby receives no
     * request while it waits, so without them its first real recovery request is read several times slower than on
     * a live host, which serves checkpoint calls every second.
     */
    private static final int PLANLESS_ROUNDS = 300;
    private static final String LARGE_JOB = """
            {"id": "%s", "recovery": {"mode": "LOCAL"}, "operators": [
              {"id": "source", "type": "generator", "parallelism": 8, "config": {"count": 1, "keys": 1}},
              {"id": "count", "type": "keyed-count", "parallelism": 16, "inputs": [{"from": "source"}]},
              {"id": "sink", "type": "latest-value-sink", "parallelism": 8, "inputs": [{"from": "count"}]}
            ]}""".formatted(TOPOLOGY);
    private static final String PLAN = """
            {"plan": {"topology": "steadfast-warm-up", "recoveryMode": "LOCAL",
               "tasks": [{"id": "steadfast-warm-up/source#0", "type": "generator", "parallelism": 1, "config": {},
                          "inputs": [], "outputs": []}],
               "channels": []},
             "placement": {"hosts": {"steadfast-warm-up/source#0": "steadfast-warm-up"},
                           "endpoints": {"steadfast-warm-up": "tcp://127.0.0.1:1"}},
             "tasks": ["steadfast-warm-up/source#0"], "checkpointId": 1, "latestTriggered": 1, "peers": [],
             "recovering": ["steadfast-warm-up/source#0"]}""";

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        String port = event.getApplicationContext().getEnvironment().getProperty("local.server.port");
        if (port == null) {
            done = true;
            return;
        }
        URI self = URI.create("http://127.0.0.1:" + port);
        URI base = URI.create(self + "/api/v1/deployments/" + TOPOLOGY);
        Executors.newSingleThreadExecutor(new DaemonThreads("steadfast-warm-up")).execute(() -> {
            try {
                warmUp(base);
                runWarmUpJob();
                new InPlaceRecoveryWarmUp(node, snapshots, self).run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                done = true;
            }
        });
    }

    /**
     * Runs a small word count on this host alone and drops it, so that the code a recovered task runs first
     * (operators, keyed state, batching, the mailbox loop) is compiled before a real recovery needs it. The router
     * never hears of it; were it still here at a heartbeat after the grace for unknown topologies, the host would
     * cancel it as stale.
     */
    private void runWarmUpJob() {
        long start = System.nanoTime();
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(JOB));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), node.id()));
        try {
            node.deploy(plan, new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint())));
            boolean finished = new TaskWaits(node).finishWithin(plan.topology(), Duration.ofSeconds(20));
            LOG.info("Warmed up the operators with a {}-event job in {} ms{}", WARM_UP_EVENTS,
                    (System.nanoTime() - start) / 1_000_000, finished ? "" : " (stopped before it finished)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.debug("The warm-up job did not run: {}", e.toString());
        } finally {
            try {
                node.cancel(plan.topology());
            } catch (RuntimeException e) {
                LOG.debug("The warm-up job could not be cancelled: {}", e.toString());
            }
        }
    }

    private static void post(HttpClient http, String uri, String json) throws java.io.IOException,
            InterruptedException {
        http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /**
     * A recovery request for one task of a 32-task plan of the warm-up topology: bound and validated whole, then
     * refused (the checkpoint-service holds no snapshot of it).
     */
    static String largePlanRequest() {
        return largeRequest(true);
    }

    /**
     * The same request without the plan, naming its epoch, as the router sends it first: refused with 409, as this
     * host holds no plan of the warm-up topology.
     */
    static String largePlanlessRequest() {
        return largeRequest(false);
    }

    private static String largeRequest(boolean withPlan) {
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read(LARGE_JOB));
        Map<String, String> hosts = new TreeMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id().toString(), TOPOLOGY));
        List<String> first = List.of(plan.tasks().get(0).id().toString());
        Map<String, Object> request = new LinkedHashMap<>();
        if (withPlan) {
            request.put("plan", plan);
        }
        request.put("epoch", plan.epoch());
        request.put("placement", Map.of("hosts", hosts, "endpoints", Map.of(TOPOLOGY, "tcp://127.0.0.1:1")));
        request.put("tasks", first);
        request.put("checkpointId", 1);
        request.put("latestTriggered", 1);
        // without the plan as the router sends it, stamped and naming the live hosts (refused before they are asked)
        request.put("peers", withPlan ? List.of()
                : List.of("http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"));
        request.put("recovering", first);
        if (!withPlan) {
            request.put("requestedAt", java.time.Instant.now().toString());
        }
        return JsonMapper.shared().writeValueAsString(request);
    }

    private static void warmUp(URI base) {
        long start = System.nanoTime();
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                post(http, base + "/recoveries", PLAN);
                post(http, base + "/redirects", "{\"endpoints\": {\"" + TOPOLOGY + "/source#0\": \"tcp://127.0.0.1:1\"}}");
                // as the router sends them, with what the peers hold of the lost tasks' decisions
                post(http, base + "/catch-up-targets", "{\"heads\": {\"" + TOPOLOGY + "~0@0\": 1}, \"recovery\":"
                        + " \"warm-up\", \"heldDecisions\": {\"http://127.0.0.1:1\": {\"" + TOPOLOGY
                        + "/source#0\": {\"from\": 0, \"end\": 4}}}}");
                http.send(HttpRequest.newBuilder(URI.create(base + "/decisions?task=" + TOPOLOGY
                        + "/source%230&from=0")).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                http.send(HttpRequest.newBuilder(URI.create(base + "/decisions/earliest?task=" + TOPOLOGY
                        + "/source%230&task=" + TOPOLOGY + "/count%230")).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
            }
            String largePlan = largePlanRequest();
            String largePlanless = largePlanlessRequest();
            for (int round = 0; round < LARGE_PLAN_ROUNDS; round++) {
                post(http, base + "/recoveries", largePlanless);
                post(http, base + "/recoveries", largePlan);
            }
            for (int round = 0; round < PLANLESS_ROUNDS; round++) {
                post(http, base + "/recoveries", largePlanless);
            }
            LOG.info("Warmed up the local-recovery path in {} ms", (System.nanoTime() - start) / 1_000_000);
        } catch (java.io.IOException e) {
            LOG.debug("Warm-up of the local-recovery path stopped: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
