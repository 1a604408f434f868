package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checkpoint store is not a single point of failure for processing, end to end with real
 * processes: checkpoint-service (embedded H2-backed store in the run directory), router and two hosts on
 * loopback; a rate-limited word count runs for about 90 s with a checkpoint every second. After two checkpoints
 * have completed, the checkpoint-service process is killed with SIGKILL (a crash of the store). While it is down
 * the sinks must keep receiving records, the router must keep reporting the topology (its own records live in the
 * same embedded store; it answers from memory) and no router or host process may die; the router's checkpoint
 * listing answers 503 meanwhile. The checkpoint-service is then started again on the same ports with the same
 * data directory; a checkpoint newer than every one completed before the outage must complete, the router must
 * report its store UP again and record there the checkpoints that failed meanwhile, and every key's final count
 * must be exact.
 *
 * <p>SIGKILL is deliberate: the embedded H2 backend may lose writes it never acknowledged, but every snapshot and
 * completion the service acknowledged was committed before its answer, so the checkpoints completed before the
 * outage are still there afterwards. Logs stay in {@code local-cluster/target/e2e-run/store-outage-<timestamp>/}.
 */
@Timeout(300)
class CheckpointStoreOutageIT {

    private static final int KEYS = 1000;
    /**
     * About 90 s at {@link #RATE_PER_SECOND}: the outage starts some 10 s in, lasts at least {@link #OUTAGE} plus
     * the checkpoint-service's restart (20-36 s on a machine loaded by the two busy hosts: it is a
     * Spring Boot process), and a checkpoint must still complete afterwards, before the sources run dry.
     */
    private static final int COUNT = 3_600_000;
    private static final int RATE_PER_SECOND = 40_000;
    private static final int HOSTS = 2;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);
    /** How long the store stays down at least while processing is watched. */
    private static final Duration OUTAGE = Duration.ofSeconds(4);
    /** Sink input the outage must at least see: a second's worth at the source rate. */
    private static final long MIN_SINK_PROGRESS_DURING_OUTAGE = RATE_PER_SECOND;

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("store-outage", HOSTS);

    private static RouterClient router;
    private static ClusterProcesses processes;

    @BeforeAll
    static void useTheCluster() {
        router = CLUSTER.router();
        processes = CLUSTER.processes();
    }

    @Test
    void processingGoesOnWhileTheStoreIsDownAndCheckpointsResumeWithExactCountsPerKey() {
        TopologyId id = router.deploy(TestTopologies.wordCount("e2e-store-outage", COUNT, KEYS, RATE_PER_SECOND)).id();
        long beforeOutage = CLUSTER.awaitCompletedCheckpoints(id, 2);

        int port = processes.checkpointUrl().getPort();
        ServiceProcess store = processes.checkpointService().orElseThrow();
        long sinkInAtKill = CLUSTER.sinkRecordsIn(id, SINK);
        CLUSTER.log("killing the checkpoint-service pid " + store.pid() + " (SIGKILL); latest completed checkpoint "
                + beforeOutage + "; sink records in " + sinkInAtKill);
        store.kill();
        assertThat(store.isAlive()).as("the checkpoint-service is gone").isFalse();
        Instant killedAt = Instant.now();

        processingGoesOnWithoutTheStore(id, sinkInAtKill, killedAt);
        checkpointListingAnswers503DuringOutage(id);

        ServiceProcess restarted = restartCheckpointService(port);
        CLUSTER.log("checkpoint-service is UP again after " + Duration.between(killedAt, Instant.now()).toMillis()
                + " ms down (pid " + restarted.pid() + ", same port " + port + " and data dir)");
        long latestInStore = latestCompletedInStore(processes.checkpointUrl(), id);
        CLUSTER.log("the restarted store's latest completed checkpoint of " + id + ": " + latestInStore);
        assertThat(latestInStore)
                .as("checkpoint %d was acknowledged as COMPLETED before the SIGKILL, so the restarted store still has it "
                        + "(or a newer one)", beforeOutage)
                .isGreaterThanOrEqualTo(beforeOutage);

        failuresDuringOutageAreRecordedOnceTheStoreIsBack(processes.checkpointUrl(), id);

        CheckpointSummary resumed = awaitCheckpointCompletedAfter(id, beforeOutage);
        CLUSTER.log("checkpoint " + resumed.checkpointId() + " COMPLETED after the outage");
        await("the router reaches its own records in the restarted store (its health UP again)")
                .atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .until(() -> router.healthStatus().filter("UP"::equals).isPresent());
        TopologyCheckpoints afterOutage = router.checkpoints(id);
        CLUSTER.log("checkpoints after the outage: " + afterOutage.checkpoints().stream()
                .map(c -> c.checkpointId() + ":" + c.status() + (c.failureReason() == null ? "" : "(" + c.failureReason() + ")"))
                .toList());

        assertThat(CLUSTER.finalCounts(id, SINK, FINISH_TIMEOUT))
                .containsExactlyInAnyOrderEntriesOf(TestTopologies.expectedCounts(COUNT, KEYS));
        assertThat(router.recoveries()).as("no recovery: no host failed, only the store")
                .noneMatch(r -> r.topology().equals(id));
        assertThat(router.delete(id)).isTrue();
    }

    /**
     * Waits until the store has been down for {@link #OUTAGE} and the sinks have received at least
     * {@link #MIN_SINK_PROGRESS_DURING_OUTAGE} more records than at the kill, failing at once if a router or
     * host process dies, a task fails or the topology finishes first (then the run is too short).
     */
    private static void processingGoesOnWithoutTheStore(TopologyId id, long sinkInAtKill, Instant killedAt) {
        AtomicLong sinkIn = new AtomicLong(sinkInAtKill);
        await("the sinks of %s keep receiving records while the checkpoint-service is down".formatted(id))
                .atMost(OUTAGE.plusSeconds(20)).pollInterval(POLL)
                .failFast(() -> {
                    assertRouterAndHostsAlive();
                    TopologyDetail view = router.topology(id);
                    if (view.anyTaskFailed()) {
                        throw new AssertionError("a task FAILED while the store was down: " + view.tasks());
                    }
                    if (view.allTasksFinished()) {
                        throw new AssertionError("the topology finished during the outage; raise its count");
                    }
                })
                .until(() -> {
                    long now = CLUSTER.sinkRecordsIn(id, SINK);
                    assertThat(now).as("sink records in never go back").isGreaterThanOrEqualTo(sinkIn.get());
                    sinkIn.set(now);
                    return now - sinkInAtKill >= MIN_SINK_PROGRESS_DURING_OUTAGE
                            && Duration.between(killedAt, Instant.now()).compareTo(OUTAGE) >= 0;
                });
        CLUSTER.log("store down " + Duration.between(killedAt, Instant.now()).toMillis() + " ms: sink records in "
                + sinkInAtKill + " -> " + sinkIn.get() + "; router and hosts alive");
        assertRouterAndHostsAlive();
    }

    /**
     * The router keeps checkpoint records in the store, so while it is down the listing cannot be answered: it must
     * be a 503 problem that names the checkpoint-service, not a 500.
     */
    private static void checkpointListingAnswers503DuringOutage(TopologyId id) {
        assertThatThrownBy(() -> router.checkpoints(id))
                .as("the checkpoint listing while the checkpoint-service is down")
                .isInstanceOfSatisfying(RouterRequestException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.getMessage()).contains("The checkpoint-service, which keeps the checkpoint records,"
                            + " is unavailable");
                });
        CLUSTER.log("checkpoint listing during the outage: HTTP 503, as expected");
        assertThat(router.healthStatus()).as("the router still answers its health endpoint").isPresent();
    }

    /**
     * Checkpoints that failed while the store was down are recorded there once it is back: the restarted store's
     * counter of failures for want of the store grows. (Its listing keeps them only until the next checkpoint
     * completes: retention deletes every record older than the newest completed one but the kept completed ones.)
     */
    private static void failuresDuringOutageAreRecordedOnceTheStoreIsBack(URI checkpointService, TopologyId id) {
        AtomicReference<Double> recorded = new AtomicReference<>(0.0);
        await("the router records the checkpoints of %s that failed during the outage".formatted(id))
                .atMost(Duration.ofSeconds(30)).pollInterval(POLL)
                .until(() -> {
                    recorded.set(storeUnavailableFailures(checkpointService, id));
                    return recorded.get() >= 1;
                });
        CLUSTER.log("the restarted store recorded " + recorded.get().longValue() + " checkpoint failure(s) with reason"
                + " STORE_UNAVAILABLE");
    }

    /** {@code steadfast_checkpoint_failed_total{reason="STORE_UNAVAILABLE",topology=id}} of the checkpoint-service. */
    private static double storeUnavailableFailures(URI checkpointService, TopologyId id) {
        HttpRequest request = HttpRequest.newBuilder(checkpointService.resolve("/actuator/prometheus"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            String metrics = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
            return metrics.lines().filter(line -> line.startsWith("steadfast_checkpoint_failed_total{")
                            && line.contains("reason=\"STORE_UNAVAILABLE\"") && line.contains("topology=\"" + id + "\""))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * Starts the checkpoint-service again on the same port with the same data directory, and its embedded store on
     * the same port too (the router keeps its own records there), and waits until its health is UP. The ports are
     * not probed first: connections the killed process held may linger in TIME_WAIT, which keeps a plain probe
     * from binding but not the service (it binds with SO_REUSEADDR).
     */
    private static ServiceProcess restartCheckpointService(int port) {
        ServiceProcess restarted = processes.startCheckpointService(port, processes.routerStoreUri().getPort());
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
        await("the restarted checkpoint-service is UP on port %d".formatted(port))
                .atMost(STARTUP_TIMEOUT).pollInterval(POLL)
                .failFast(() -> {
                    if (!restarted.isAlive()) {
                        throw new AssertionError("the restarted checkpoint-service exited with "
                                + restarted.exitCode() + "; log " + restarted.logFile() + ":\n"
                                + String.join("\n", restarted.logExcerpt(40)));
                    }
                })
                .until(() -> isUp(health));
        return restarted;
    }

    /**
     * {@code GET /api/v1/checkpoints/{topology}/latest-completed} straight from the checkpoint-service: retention
     * only ever deletes checkpoints older than the newest completed one, so its id can only grow.
     */
    private static long latestCompletedInStore(URI checkpointService, TopologyId id) {
        HttpRequest request = HttpRequest.newBuilder(
                        checkpointService.resolve("/api/v1/checkpoints/" + id + "/latest-completed"))
                .timeout(Duration.ofSeconds(5)).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("%s answered %s", request.uri(), response.body()).isEqualTo(200);
            return router.json().readTree(response.body()).get("checkpointId").asLong();
        } catch (IOException e) {
            throw new AssertionError("GET " + request.uri() + " failed right after the restart", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Waits for a COMPLETED checkpoint with an id above {@code checkpointId}. The router's listing reads the store,
     * which may still refuse a request right after its restart: such an answer counts as "not yet".
     */
    private static CheckpointSummary awaitCheckpointCompletedAfter(TopologyId id, long checkpointId) {
        AtomicReference<Optional<CheckpointSummary>> last = new AtomicReference<>(Optional.empty());
        AtomicReference<String> lastListing = new AtomicReference<>("none yet");
        await("a checkpoint of %s completed after %d, once the store is back".formatted(id, checkpointId))
                .atMost(Duration.ofSeconds(60)).pollInterval(POLL)
                .failFast(() -> {
                    assertRouterAndHostsAlive();
                    assertStillRunning(id, "the topology finished before a checkpoint completed after the outage "
                            + "(last listing: " + lastListing.get() + "); checkpoints did not resume in time");
                })
                .until(() -> {
                    try {
                        TopologyCheckpoints view = router.checkpoints(id);
                        lastListing.set(view.checkpoints().stream()
                                .map(c -> c.checkpointId() + ":" + c.status()
                                        + (c.failureReason() == null ? "" : "(" + c.failureReason() + ")"))
                                .toList().toString());
                        last.set(view.latestCompletedCheckpoint()
                                .filter(c -> c.checkpointId().value() > checkpointId));
                    } catch (RouterRequestException e) {
                        lastListing.set("refused: " + e.getMessage());
                        return false;
                    }
                    return last.get().isPresent();
                });
        return last.get().orElseThrow();
    }

    private static void assertStillRunning(TopologyId id, String finishedMessage) {
        if (router.topology(id).allTasksFinished()) {
            throw new AssertionError(finishedMessage);
        }
    }

    private static void assertRouterAndHostsAlive() {
        processes.all().stream()
                .filter(process -> !process.name().equals("checkpoint-service"))
                .filter(process -> !process.isAlive())
                .findFirst()
                .ifPresent(dead -> {
                    throw new AssertionError(dead.name() + " died (exit " + dead.exitCode() + ") while the "
                            + "checkpoint-service was down or restarting; log " + dead.logFile() + ":\n"
                            + String.join("\n", dead.logExcerpt(40)));
                });
    }

    private static boolean isUp(URI health) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"UP\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
