package io.steadfast.host.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.recovery.StandInPeers;
import io.steadfast.host.snapshot.InMemoryCheckpointing;
import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.host.snapshot.RecordingReporter;
import io.steadfast.host.snapshot.SnapshotPrefetches;
import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.recovery.DecisionLog;
import io.steadfast.runtime.recovery.HeldDecisions;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.json.JsonMapper;

/**
 * The host's local-recovery API over its real runtime, with an in-memory snapshot store: tasks restored in place
 * from a checkpoint finish with exact results; bad requests are refused naming what to fix.
 */
@SpringBootTest(properties = "steadfast.host.id=lr-host")
@AutoConfigureMockMvc
@ContextConfiguration(initializers = InMemoryCheckpointing.Store.class)
@Import(InMemoryCheckpointing.Reporting.class)
class LocalRecoveryApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int COUNT = 30_000;

    @Autowired
    private MockMvc mvc;
    @Autowired
    private ProcessingNode node;
    @Autowired
    private RecordingReporter reporter;
    @Autowired
    private InMemorySnapshotStore store;
    @Autowired
    private SnapshotPrefetches prefetches;

    @AfterEach
    void cancel() throws Exception {
        store.setAvailable(true);
        mvc.perform(delete("/api/v1/deployments/lr"));
    }

    private static ExecutionPlan plan(int ratePerSecond) {
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "lr", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": %d, "keys": 20, "ratePerSecond": %d}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(COUNT, ratePerSecond))).withRecoveryMode(RecoveryMode.LOCAL);
    }

    private Map<String, Object> placement(ExecutionPlan plan) {
        Map<String, String> hosts = new LinkedHashMap<>();
        for (TaskSpec task : plan.tasks()) {
            hosts.put(task.id().toString(), "lr-host");
        }
        return Map.of("hosts", hosts, "endpoints", Map.of("lr-host", node.dataEndpoint()));
    }

    private String recovery(ExecutionPlan plan, List<String> tasks, long checkpointId) {
        return JSON.writeValueAsString(Map.of("plan", plan, "placement", placement(plan), "tasks", tasks,
                "checkpointId", checkpointId, "latestTriggered", checkpointId, "peers", List.of()));
    }

    /** The request as the router sends it first: without the plan, naming its epoch. */
    private String planlessRecovery(ExecutionPlan plan, List<String> tasks, long checkpointId, int epoch) {
        return JSON.writeValueAsString(Map.of("epoch", epoch, "placement", placement(plan), "tasks", tasks,
                "checkpointId", checkpointId, "latestTriggered", checkpointId, "peers", List.of()));
    }

    /** Deploys the plan, completes checkpoint 1 while it runs, then cancels it: every task of it is lost. */
    private void runUntilCheckpointOneThenLoseEveryTask(ExecutionPlan plan) throws Exception {
        mvc.perform(post("/api/v1/deployments").contentType(MediaType.APPLICATION_JSON)
                .content(JSON.writeValueAsString(Map.of("plan", plan, "placement", placement(plan)))))
                .andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(10)).until(() -> recordsIn("lr/source#0") > 5_000);
        int earlier = reporter.acks.size(); // of the tests before
        mvc.perform(post("/api/v1/deployments/lr/checkpoints/1")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(10)).until(() -> reporter.acks.stream().skip(earlier)
                .filter(a -> a.startsWith("lr/") && a.contains(" 1 ")).count() == plan.tasks().size());
        mvc.perform(post("/api/v1/deployments/lr/checkpoints/1/completed")).andExpect(status().isAccepted());
        mvc.perform(delete("/api/v1/deployments/lr"));
    }

    /** Asks the host to fetch the snapshots of {@code tasks} in checkpoint 1 ahead, as the router does on a suspicion. */
    private ResultActions prefetchInCheckpointOne(List<String> tasks) throws Exception {
        return prefetchInCheckpointOne(Map.of("checkpointId", 1, "tasks", tasks));
    }

    private ResultActions prefetchInCheckpointOne(Map<String, Object> request) throws Exception {
        return mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                .content(JSON.writeValueAsString(request)));
    }

    private void finishesWithExactResults() {
        await().atMost(Duration.ofSeconds(30)).until(() -> statusOf("lr/sink#0") == TaskStatus.FINISHED);
        Map<String, Object> counts = node.queryAll(TaskId.parse("lr/sink#0"), "latest", 100);
        assertThat(counts).hasSize(20).allSatisfy((key, count) -> assertThat(count).isEqualTo((long) COUNT / 20));
        assertThat(recordsIn("lr/source#0")).as("the source resumed at its checkpointed position")
                .isLessThan(COUNT);
    }

    @Test
    void restoresLostTasksInPlaceFromACheckpointAndTheyFinishWithExactResults() throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);

        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(recovery(plan, all, 1)))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.tasks.length()").value(all.size()))
                .andExpect(jsonPath("$.decisionBytes").value(0));

        finishesWithExactResults();
    }

    @Test
    void recoversFromSnapshotsFetchedAheadWithoutFetchingThemAgain() throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);
        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        List<TaskId> ids = plan.tasks().stream().map(TaskSpec::id).toList();

        prefetchInCheckpointOne(all)
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.started").value(all.size()));
        prefetchInCheckpointOne(all.subList(0, 1))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.started").value(0)); // fetched or being fetched already
        await().atMost(Duration.ofSeconds(10)).until(() -> prefetches.fetched(ids, 1));
        store.setAvailable(false); // a recovery that fetched them now would be refused

        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(recovery(plan, all, 1)))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.tasks.length()").value(all.size()));

        finishesWithExactResults();
        assertThat(prefetches.fetched(ids.subList(0, 1), 1)).as("taken out by the recovery").isFalse();
    }

    /**
     * Once it fetched the snapshots ahead, the host restores the operators ahead; given the placement the recovery
     * would have, it prepares the tasks whole too. The recovery with that placement takes what was made.
     */
    @ParameterizedTest(name = "placement given: {0}")
    @ValueSource(booleans = {false, true})
    void makesTheTasksAheadFromTheSnapshotsFetchedAheadAndTheRecoveryTakesThem(boolean placementGiven)
            throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);
        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        List<TaskId> ids = plan.tasks().stream().map(TaskSpec::id).toList();
        HostAssignment view = new HostAssignment(List.of(new HostDeployment(plan.topology(), plan.epoch(), List.of())));
        node.preparePlans(view, topology -> Optional.of(plan)); // the plan the router's view names, held ahead
        Predicate<TaskId> madeAhead = placementGiven ? id -> node.preparedAhead(id, 1) : id -> node.restoredAhead(id, 1);

        prefetchInCheckpointOne(placementGiven ? Map.of("checkpointId", 1, "tasks", all, "placement", placement(plan))
                : Map.of("checkpointId", 1, "tasks", all))
                .andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream().allMatch(madeAhead));
        if (placementGiven) {
            assertThat(ids).as("the prepared tasks took the operators restored ahead")
                    .noneMatch(id -> node.restoredAhead(id, 1));
        }

        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(planlessRecovery(plan, all, 1, plan.epoch())))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.tasks.length()").value(all.size()));

        assertThat(ids).as("the recovery took everything made ahead").noneMatch(madeAhead);
        finishesWithExactResults();
    }

    @Test
    void takesTheDecisionsFetchedAheadOnceThePeersConfirmTheyHoldNoMore() throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);
        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        try (StandInPeers peers = new StandInPeers()) {
            URI peer = peers.peer(Map.of());
            mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                            .content(JSON.writeValueAsString(Map.of("checkpointId", 1, "tasks", all,
                                    "peers", List.of(peer)))))
                    .andExpect(status().isAccepted());
            await().atMost(Duration.ofSeconds(5)).until(() -> peers.requests.size() == 1);
            // the router's catch-up, with what the peer answered it holds when its channels were redirected
            mvc.perform(post("/api/v1/deployments/lr/catch-up-targets").contentType(MediaType.APPLICATION_JSON)
                            .content(JSON.writeValueAsString(Map.of("heads", Map.of(), "recovery", "r-api",
                                    "heldDecisions", Map.of(peer.toString(), Map.of())))))
                    .andExpect(status().isAccepted());

            Map<String, Object> request = new LinkedHashMap<>(JSON.readValue(recovery(plan, all, 1), Map.class));
            request.put("peers", List.of(peer.toString()));
            request.put("recovery", "r-api");
            mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                            .content(JSON.writeValueAsString(request)))
                    .andExpect(status().isCreated())
                    .andExpect(jsonPath("$.tasks.length()").value(all.size()));

            finishesWithExactResults();
            assertThat(peers.requests).as("asked ahead only, not again by the recovery")
                    .containsExactly("/api/v1/deployments/lr/decisions/earliest " + all.size());
        }
    }

    @Test
    void replaysTheDecisionsFetchedAheadBeforeTheConfirmationAndTheRestAfterIt() throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);
        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        TaskId source = TaskId.parse("lr/source#0");
        long offset = OperatorSnapshot.fromBytes(store.get(source, 1).orElseThrow()).positions().decisionOffset();
        DecisionLog logged = new DecisionLog(offset); // the source had emitted 100 events since the barrier
        logged.recordRun(0, 100);
        byte[] decisions = logged.readFrom(offset).bytes();
        try (StandInPeers peers = new StandInPeers()) {
            URI peer = peers.peer(Map.of(source, new HeldDecisions(offset, decisions)));
            mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                            .content(JSON.writeValueAsString(Map.of("checkpointId", 1, "tasks", all,
                                    "peers", List.of(peer)))))
                    .andExpect(status().isAccepted());
            await().atMost(Duration.ofSeconds(5)).until(() -> peers.requests.size() == 1);
            Map<String, Object> request = new LinkedHashMap<>(JSON.readValue(recovery(plan, all, 1), Map.class));
            request.put("peers", List.of(peer.toString()));
            request.put("recovery", "r-ahead");
            CompletableFuture<MvcResult> recovered = CompletableFuture.supplyAsync(() -> {
                try {
                    return mvc.perform(post("/api/v1/deployments/lr/recoveries")
                            .contentType(MediaType.APPLICATION_JSON).content(JSON.writeValueAsString(request)))
                            .andReturn();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            await("the recovered source regenerates the 100 events it logged, before any confirmation")
                    .atMost(Duration.ofSeconds(10)).until(() -> recordsOut("lr/source#0") == 100);
            await("and goes no further until the peers confirm they hold no more").during(Duration.ofMillis(300))
                    .atMost(Duration.ofSeconds(2)).until(() -> recordsOut("lr/source#0") == 100);
            assertThat(recovered).as("the recovery answers once the decisions are confirmed").isNotDone();
            mvc.perform(post("/api/v1/deployments/lr/catch-up-targets").contentType(MediaType.APPLICATION_JSON)
                            .content(JSON.writeValueAsString(Map.of("heads", Map.of(), "recovery", "r-ahead",
                                    "heldDecisions", Map.of(peer.toString(), Map.of(source.toString(),
                                            Map.of("from", offset, "end", offset + decisions.length)))))))
                    .andExpect(status().isAccepted());

            assertThat(recovered.get(10, TimeUnit.SECONDS).getResponse().getStatus()).isEqualTo(201);
            finishesWithExactResults();
            assertThat(peers.requests).as("asked ahead only").hasSize(1);
        }
    }

    @Test
    void refusesCatchUpTargetsWhoseHeldDecisionsNameAnotherTopologysTaskOrNoURL() throws Exception {
        catchUpWithHeldDecisions("{\"http://127.0.0.1:1\": {\"other/count#0\": {\"from\": 0, \"end\": 4}}}")
                .andExpect(jsonPath("$.detail", containsString("heldDecisions: other/count#0 belongs to topology")));
        catchUpWithHeldDecisions("{\"not a url\": {}}")
                .andExpect(jsonPath("$.detail", containsString("at heldDecisions")))
                .andExpect(jsonPath("$.detail", containsString("from String \"not a url\"")));
        catchUpWithHeldDecisions("{\"http://127.0.0.1:1\": null}")
                .andExpect(jsonPath("$.detail", containsString("give {} for a peer that holds nothing")));
        catchUpWithHeldDecisions("{\"http://127.0.0.1:1\": {\"lr/count#0\": {\"from\": 9, \"end\": 4}}}")
                .andExpect(jsonPath("$.detail", containsString("0 <= from <= end")))
                .andExpect(jsonPath("$.field", containsString("heldDecisions")));
    }

    /** Catch-up targets of recovery "r" with {@code heldDecisions} (JSON) as given, answered 400. */
    private ResultActions catchUpWithHeldDecisions(String heldDecisions) throws Exception {
        return mvc.perform(post("/api/v1/deployments/lr/catch-up-targets").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"heads\": {}, \"recovery\": \"r\", \"heldDecisions\": " + heldDecisions
                                + "}"))
                .andExpect(status().isBadRequest());
    }

    @Test
    void refusesASnapshotPrefetchWhosePlacementPutsATaskOnAHostWithoutEndpoint() throws Exception {
        mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"checkpointId\": 1, \"tasks\": [\"lr/count#0\"], \"placement\": {\"hosts\":"
                                + " {\"lr/count#0\": \"lr-host\"}, \"endpoints\": {}}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("placement: task lr/count#0 is placed on host lr-host,"
                        + " which has no data-plane endpoint")));
    }

    @Test
    void refusesASnapshotPrefetchForAnotherTopologyOrWithoutACheckpoint() throws Exception {
        mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"checkpointId\": 1, \"tasks\": [\"other/count#0\"]}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("belongs to topology 'other'")));
        mvc.perform(post("/api/v1/deployments/lr/snapshot-prefetches").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"tasks\": [\"lr/count#0\"]}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("checkpointId: must not be null")));
    }

    @Test
    void recoversWithoutBeingSentThePlanOnceItFetchedThePlanAhead() throws Exception {
        ExecutionPlan plan = plan(10_000);
        runUntilCheckpointOneThenLoseEveryTask(plan);
        List<String> all = plan.tasks().stream().map(task -> task.id().toString()).toList();
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(planlessRecovery(plan, all, 1, plan.epoch())))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.reason").value("PLAN_NOT_HELD"))
                .andExpect(jsonPath("$.topology").value("lr"))
                .andExpect(jsonPath("$.detail", containsString("send the plan")));

        // the router's view after a heartbeat: topology lr runs (elsewhere) at the plan's epoch
        HostAssignment view = new HostAssignment(List.of(new HostDeployment(plan.topology(), plan.epoch(), List.of())));
        assertThat(node.preparePlans(view, topology -> Optional.of(plan))).containsExactly(plan.topology());
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(planlessRecovery(plan, all, 1, plan.epoch() + 1)))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.epoch").value(plan.epoch() + 1));
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(planlessRecovery(plan, all, 1, plan.epoch())))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.tasks.length()").value(all.size()));

        finishesWithExactResults();
    }

    @Test
    void refusesARecoveryWithNeitherPlanNorEpochAndOneWhoseEpochIsNotThePlans() throws Exception {
        ExecutionPlan plan = plan(1);
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(JSON.writeValueAsString(Map.of("placement", placement(plan), "tasks",
                                List.of("lr/count#0"), "checkpointId", 1, "latestTriggered", 1, "peers", List.of()))))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("plan: missing")));
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(JSON.writeValueAsString(Map.of("plan", plan, "epoch", plan.epoch() + 3, "placement",
                                placement(plan), "tasks", List.of("lr/count#0"), "checkpointId", 1,
                                "latestTriggered", 1, "peers", List.of()))))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("plan.epoch is " + plan.epoch())));
    }

    @Test
    void refusesARecoveryForAnotherTopologyThanThePathNames() throws Exception {
        ExecutionPlan plan = plan(1);
        mvc.perform(post("/api/v1/deployments/other/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(recovery(plan, List.of("lr/count#0"), 1)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("plan.topology is 'lr'")));
    }

    @Test
    void answersAnInvalidBodyWithAProblemOfTheShapeEveryServiceShares() throws Exception {
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(recovery(plan(1), List.of(), 0)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:steadfast:problem:invalid-request-body"))
                .andExpect(jsonPath("$.reason").value("INVALID_REQUEST_BODY"))
                .andExpect(jsonPath("$.errors[*].field", hasItem("tasks")))
                .andExpect(jsonPath("$.errors[0].message").isString());
    }

    @Test
    void refusesARecoveryWithoutTasksOrCheckpoint() throws Exception {
        ExecutionPlan plan = plan(1);
        mvc.perform(post("/api/v1/deployments/lr/recoveries").contentType(MediaType.APPLICATION_JSON)
                        .content(recovery(plan, List.of(), 0)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("checkpointId: must be greater than or equal to 1")))
                .andExpect(jsonPath("$.detail", containsString("tasks: must not be empty")))
                .andExpect(jsonPath("$.errors.length()").value(2));
    }

    @Test
    void answers404ForDecisionsItDoesNotHoldAnd400ForAMalformedTaskId() throws Exception {
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "lr/count#0").param("from", "0"))
                .andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "no-task").param("from", "0"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("topology/operator#subtask")));
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "lr/count#0"))
                .andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "lr/count#0").param("from", "-1"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("from")));
    }

    @Test
    void answersTheEarliestDecisionsOfSeveralTasksAtOnceListingOnlyThoseHeld() throws Exception {
        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "lr/count#0", "lr/count#1"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.runs.length()").value(0));
        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "lr/count#0", "other/count#0"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("belongs to topology 'other'")));
        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "no-task"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("topology/operator#subtask")));
    }

    @Test
    void refusesADecisionRequestOfAnIncarnationSupersededByOneThatAskedBefore() throws Exception {
        ExecutionPlan plan = plan(1_000);
        mvc.perform(post("/api/v1/deployments").contentType(MediaType.APPLICATION_JSON)
                .content(JSON.writeValueAsString(Map.of("plan", plan, "placement", placement(plan)))))
                .andExpect(status().isCreated());

        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "lr/count#0", "lr/count#1")
                        .param("incarnation", "2", "0"))
                .andExpect(status().isOk());
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "lr/count#0").param("from", "0")
                        .param("incarnation", "1"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.reason").value("SUPERSEDED_INCARNATION"))
                .andExpect(jsonPath("$.task").value("lr/count#0"))
                .andExpect(jsonPath("$.incarnation").value(1));
        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "lr/count#0")
                        .param("incarnation", "1"))
                .andExpect(status().isConflict());
        mvc.perform(get("/api/v1/deployments/lr/decisions/earliest").param("task", "lr/count#0", "lr/count#1")
                        .param("incarnation", "3"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail", containsString("incarnation: 1 given for 2 tasks")));
        mvc.perform(get("/api/v1/deployments/lr/decisions").param("task", "lr/count#1").param("from", "0")
                        .param("incarnation", "0"))
                .andExpect(status().isNotFound()); // not superseded: answered, and nothing is held of it here
    }

    @Test
    void redirectsNothingForATopologyThatDoesNotRunHere() throws Exception {
        mvc.perform(post("/api/v1/deployments/lr/redirects").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"endpoints\": {\"lr/count#0\": \"tcp://127.0.0.1:1\"}}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.channels").value(0))
                .andExpect(jsonPath("$.heldDecisions").isEmpty());
    }

    @Test
    void refusesARedirectNamingABlankHostBehindAnEndpoint() throws Exception {
        mvc.perform(post("/api/v1/deployments/lr/redirects").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"endpoints\": {\"lr/count#0\": \"tcp://127.0.0.1:1\"},"
                                + " \"hosts\": {\"tcp://127.0.0.1:1\": \" \"}}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.field").value("hosts['tcp://127.0.0.1:1']"))
                .andExpect(jsonPath("$.detail",
                        containsString("hosts['tcp://127.0.0.1:1']: Host id must be 1-128 non-blank characters")));
    }

    private long recordsOut(String task) {
        return node.taskReports().stream().filter(r -> r.task().equals(task)).mapToLong(TaskReport::recordsOut)
                .findFirst().orElse(-1);
    }

    private long recordsIn(String task) {
        return node.taskReports().stream().filter(r -> r.task().equals(task)).mapToLong(TaskReport::recordsIn)
                .findFirst().orElse(-1);
    }

    private TaskStatus statusOf(String task) {
        return node.taskReports().stream().filter(r -> r.task().equals(task)).map(TaskReport::status)
                .findFirst().orElse(null);
    }
}
