package io.steadfast.router.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.protocol.router.TopologyModel;
import io.steadfast.router.FakeHostClient;
import io.steadfast.router.RouterCalls;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.model.TopologyModels;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.testkit.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/topologies/{id}/model}: the delay model fed with what the hosts' heartbeats report, each task's
 * utilisation its busy share, its wait the queueing model's, and a prediction of both recovery modes for the host;
 * a task that cannot keep up leaves the end-to-end delay undefined and is named.
 */
@CheckpointApiContext
@Timeout(60)
class TopologyModelApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    private MockMvc mvc;
    @Autowired
    private TopologyModels models;
    @Autowired
    private CheckpointCoordinators coordinators;
    @Autowired
    private TopologyRepository topologies;
    @Autowired
    private ManualClock clock;
    @Autowired
    private FakeHostClient hosts;

    @Test
    void predictsEachTasksWaitFromItsMeasuredRateAndBusyShareAndBothRecoveriesOfEachHost() throws Exception {
        deploy("modeled");
        heartbeat("modeled", Map.of("source", 0.1, "count", 0.5, "sink", 0.2));
        Map<TaskId, HostId> placement = topologies.find(TopologyId.of("modeled")).orElseThrow().placement();

        TopologyModel model = model("modeled");

        TopologyModel.TaskModel count = task(model, "modeled/count#0");
        assertThat(count.arrivalPerSecond()).isEqualTo(1000);
        assertThat(count.serviceMillis()).isCloseTo(0.5, within(1e-9)); // busy 0.5 over 1,000 records/s
        assertThat(count.utilisation()).isCloseTo(0.5, within(1e-9));
        // Kingman with c_a² = c_s² = 1 (the defaults), as M/M/1: ρ / (1 − ρ) · E[S] = 1 · 0.5 ms
        assertThat(count.waitMillis()).isCloseTo(0.5, within(1e-9));
        assertThat(count.stability()).isEqualTo("STABLE");
        assertThat(count.recordsPerFrame()).as("no frame counts in the heartbeat: one by one").isEqualTo(1.0);
        assertThat(model.edges()).extracting(edge -> edge.from() + "->" + edge.to())
                .containsExactly("source->count", "count->sink");
        assertThat(model.edges()).allSatisfy(edge -> assertThat(edge.networkMillis()).isEqualTo(0.2));
        assertThat(model.endToEnd().maxMillis()).as("three sojourns and two channels")
                .isGreaterThan(0.11 + 1.0 + 0.25);
        assertThat(model.endToEnd().criticalPath()).extracting(TaskId::toString)
                .containsExactly("modeled/source#0", "modeled/count#0", "modeled/sink#0");
        assertThat(model.hostLosses()).extracting(TopologyModel.HostLoss::host)
                .containsExactlyInAnyOrderElementsOf(new java.util.HashSet<>(placement.values()));
        assertThat(model.hostLosses()).allSatisfy(loss -> {
            assertThat(loss.lostTasks()).containsExactlyInAnyOrderElementsOf(placement.entrySet().stream()
                    .filter(entry -> entry.getValue().equals(loss.host())).map(Map.Entry::getKey).toList());
            assertThat(loss.local().steps()).extracting(RecoveryForecast.Step::name)
                    .containsExactly("detection", "restart", "restore", "catch-up");
            assertThat(loss.local().steps().get(0).millis())
                    .isCloseTo(models.detectionSeconds() * 1000, within(1e-9));
            assertThat(loss.global().totalMillis()).isNotNull();
            assertThat(loss.faster()).isIn("LOCAL", "GLOBAL");
            assertThat(loss.reason()).isNotBlank();
        });
    }

    @Test
    void aTaskBusyAllTheTimeIsSaturatedAndLeavesTheEndToEndDelayUndefined() throws Exception {
        deploy("saturated");
        heartbeat("saturated", Map.of("source", 0.1, "count", 1.0, "sink", 0.2));
        HostId countHost = topologies.find(TopologyId.of("saturated")).orElseThrow().placement()
                .get(TaskId.parse("saturated/count#0"));

        TopologyModel model = model("saturated");

        assertThat(task(model, "saturated/count#0").stability()).isEqualTo("UNSTABLE");
        assertThat(task(model, "saturated/count#0").waitMillis()).isNull();
        assertThat(model.endToEnd().maxMillis()).isNull();
        assertThat(model.endToEnd().saturatedTasks()).extracting(TaskId::toString)
                .containsExactly("saturated/count#0");
        assertThat(model.hostLosses()).filteredOn(loss -> loss.host().equals(countHost)).singleElement()
                .satisfies(loss -> assertThat(loss.local().totalMillis()).as("no spare capacity to catch up")
                        .isNull());
    }

    @Test
    void takesEachTasksStateFromTheLatestCompletedCheckpoint() throws Exception {
        TopologyId topology = TopologyId.of("stateful");
        FirstCheckpoint.triggeredFor(topology, List.of("stateful-host"), new RouterCalls(mvc), coordinators, clock,
                hosts);
        await().until(() -> coordinators.lastTriggeredId(topology) >= 1);
        Map<TaskId, HostId> placement = topologies.find(topology).orElseThrow().placement();
        List<TaskId> tasks = placement.keySet().stream().sorted().toList();
        for (int i = 0; i < tasks.size(); i++) {
            FirstCheckpoint.acknowledged(mvc, topology, tasks.get(i), placement.get(tasks.get(i)), 1_000L * (i + 1));
        }
        await().until(() -> coordinators.lastCompleted(topology).isPresent());
        heartbeat("stateful", Map.of("source", 0.1, "count", 0.5, "sink", 0.2));

        TopologyModel model = model("stateful");

        for (int i = 0; i < tasks.size(); i++) {
            assertThat(task(model, tasks.get(i).toString()).stateBytes()).isEqualTo(1_000L * (i + 1));
        }
        for (TopologyModel.HostLoss loss : model.hostLosses()) {
            long lostBytes = 0;
            for (int i = 0; i < tasks.size(); i++) {
                lostBytes += placement.get(tasks.get(i)).equals(loss.host()) ? 1_000L * (i + 1) : 0;
            }
            // the lost tasks one after another: 3 ms to fetch each, their bytes at 100 MiB/s
            assertThat(loss.local().steps().get(2).millis()).as("restoring the tasks of %s", loss.host())
                    .isCloseTo(3.0 * loss.lostTasks().size() + lostBytes / (100.0 * 1024 * 1024) * 1000,
                            within(1e-6));
        }
    }

    @Test
    void forecastsBothModesOfARecoveryOfAHostThatRunsTasksAndNothingForAnotherWithoutReadingTheStore()
            throws Exception {
        deploy("forecast");
        heartbeat("forecast", Map.of("source", 0.1, "count", 0.5, "sink", 0.2));
        DeployedTopology topology = topologies.find(TopologyId.of("forecast")).orElseThrow();
        HostId host = topology.placement().get(TaskId.parse("forecast/count#0"));

        RecoveryForecasts forecast = models.forecast(topology,
                new DetectedFailure(host, clock.instant(), clock.instant().plusMillis(300))).orElseThrow();

        assertThat(forecast.local().mode()).isEqualTo("LOCAL");
        assertThat(forecast.global().mode()).isEqualTo("GLOBAL");
        assertThat(forecast.of("GLOBAL")).isSameAs(forecast.global());
        assertThat(forecast.local().steps()).hasSize(4);
        assertThat(forecast.local().totalMillis()).isPositive();
        assertThat(forecast.faster()).isIn("LOCAL", "GLOBAL");
        assertThat(models.forecast(topology, new DetectedFailure(HostId.of("elsewhere"), clock.instant(),
                clock.instant().plusMillis(300)))).isEmpty();
    }

    @Test
    void answers404ForATopologyNotDeployed() throws Exception {
        mvc.perform(get("/api/v1/topologies/{id}/model", "nowhere")).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("nowhere")));
    }

    /**
     * Deploys the pipeline (source, count, sink) with a host of its own registered first; the router places its
     * tasks over every live host of the shared context.
     */
    private void deploy(String topology) throws Exception {
        RouterCalls router = new RouterCalls(mvc);
        router.register(topology + "-host");
        router.submit(RouterCalls.pipeline(topology, "")).andExpect(status().isCreated());
    }

    /**
     * Heartbeats of the hosts that run {@code topology}'s tasks (the router places them over every live host of the
     * shared context), each task of operator {@code o} taking 1,000 records/s, busy {@code busy.get(o)} of the time.
     */
    private void heartbeat(String topology, Map<String, Double> busy) throws Exception {
        Map<TaskId, HostId> placement = topologies.find(TopologyId.of(topology)).orElseThrow().placement();
        Map<HostId, List<TaskId>> byHost = new java.util.TreeMap<>(java.util.Comparator.comparing(HostId::value));
        placement.forEach((task, host) -> byHost.computeIfAbsent(host, h -> new java.util.ArrayList<>()).add(task));
        for (Map.Entry<HostId, List<TaskId>> host : byHost.entrySet()) {
            heartbeat(host.getKey().value(), host.getValue().stream().map(TaskId::toString).toList(),
                    task -> busy.get(TaskId.parse(task).operator().value()));
        }
    }

    /** A heartbeat of {@code host} whose tasks (full ids) each took 1,000 records/s, busy as {@code busy} says. */
    private void heartbeat(String host, List<String> tasks, java.util.function.Function<String, Double> busy)
            throws Exception {
        String reports = String.join(",", tasks.stream().map(task -> """
                {"task": "%s", "type": "t", "status": "RUNNING", "recordsIn": 5000, "recordsOut": 5000,
                 "recordsInPerSecond": 1000, "recordsOutPerSecond": 1000, "latencyMillis": 1.0,
                 "busyFraction": %s, "queuedFrames": 0, "malformedFrames": 0, "backpressuredMillis": 0,
                 "failure": null}""".formatted(task, busy.apply(task))).toList());
        mvc.perform(put("/api/v1/hosts/{id}/heartbeat", host).contentType(MediaType.APPLICATION_JSON)
                .content("{\"tasks\": [" + reports + "]}")).andExpect(status().isOk());
    }

    private TopologyModel model(String topology) throws Exception {
        return JSON.readValue(mvc.perform(get("/api/v1/topologies/{id}/model", topology))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString(), TopologyModel.class);
    }

    private static TopologyModel.TaskModel task(TopologyModel model, String task) {
        return model.tasks().stream().filter(t -> t.task().toString().equals(task)).findFirst().orElseThrow();
    }
}
