package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.problem.FieldError;
import io.steadfast.protocol.problem.Problem;
import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.router.CheckpointTriggered;
import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.LocalRecoveryView;
import io.steadfast.protocol.router.OperatorResults;
import io.steadfast.protocol.router.RecoveryForecast;
import io.steadfast.protocol.router.RecoveryForecasts;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyCheckpoints;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySubmitted;
import io.steadfast.protocol.router.TopologySummary;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The router's answers keep the JSON they had when the router, the launcher and the dashboard each had their own copy:
 * ids as bare text (checkpoint ids as numbers), the members of the groups flat, and nothing but the components.
 */
class RouterViewsJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final TopologyId TOPOLOGY = TopologyId.of("t");
    private static final TaskId SOURCE = TaskId.parse("t/source#0");
    private static final HostId HOST = new HostId("host-1");

    @Test
    void writesTheSubmittedTopologyWithItsPlacement() {
        assertRoundTrip(new TopologySubmitted(TOPOLOGY, TopologySubmitted.RUNNING,
                        List.of(new TopologySubmitted.PlacedTask(SOURCE, HOST)), List.of("versions share host-1")),
                """
                {"id":"t","status":"RUNNING","tasks":[{"task":"t/source#0","host":"host-1"}],\
                "warnings":["versions share host-1"]}""");
    }

    @Test
    void readsASubmittedTopologyWithoutWarningsAsOneWithNone() {
        assertThat(JSON.readValue("""
                {"id":"t","status":"RUNNING","tasks":[]}""", TopologySubmitted.class).warnings()).isEmpty();
    }

    @Test
    void writesATopologySummary() {
        assertRoundTrip(new TopologySummary(TOPOLOGY, "RUNNING", List.of(OperatorId.of("source"), OperatorId.of("sink")),
                        3, T0),
                """
                {"id":"t","status":"RUNNING","operators":["source","sink"],"tasks":3,\
                "deployedAt":"2026-01-02T03:04:05Z"}""");
    }

    @Test
    void writesTheMilestonesOfATopologyAndTheTrafficOfItsTasksFlat() {
        TopologyDetail detail = new TopologyDetail(TOPOLOGY, "RUNNING",
                new TopologyDetail.Milestones(T0, 1, CheckpointId.of(7), 2),
                JsonNodeFactory.instance.objectNode().put("id", "t"),
                List.of(new TopologyDetail.TaskState(SOURCE, HOST, "LIVE", "RUNNING",
                        new TopologyDetail.Traffic(10, 9, 1.5, 2.5, 3, 0.25, 0.5, 1.25), null)),
                List.of(new TopologyDetail.OperatorRate(OperatorId.of("source"), 10, 9, 125.5, 0.25, 1.5)), List.of());

        assertRoundTrip(detail, """
                {"id":"t","status":"RUNNING","deployedAt":"2026-01-02T03:04:05Z","epoch":1,\
                "lastCompletedCheckpoint":7,"recoveries":2,"spec":{"id":"t"},"tasks":[{"task":"t/source#0",\
                "host":"host-1","hostStatus":"LIVE","status":"RUNNING","recordsIn":10,"recordsOut":9,\
                "recordsInPerSecond":1.5,"recordsOutPerSecond":2.5,"queuedFrames":3,"latencyMillis":0.25,\
                "busyFraction":0.5,"outputWaitMillis":1.25,"failure":null}],"operators":[{"operator":"source","recordsIn":10,"recordsOut":9,\
                "eventsPerSecond":125.5,"latencyMillis":0.25,"outputWaitMillis":1.5}],\
                "warnings":[]}""");
        assertThat(detail.allTasksFinished()).isFalse();
        assertThat(detail.anyTaskFailed()).isFalse();
    }

    @Test
    void writesAnOperatorsResultsAsJsonValuesSortedByKey() {
        ObjectNode values = JsonNodeFactory.instance.objectNode().put("b", 3).put("a", "x");
        values.putObject("c").put("n", 1.5);
        values.putNull("d");
        Map<String, JsonNode> byKey = new HashMap<>();
        values.properties().forEach(entry -> byKey.put(entry.getKey(), entry.getValue()));

        assertRoundTrip(new OperatorResults(TOPOLOGY, OperatorId.of("sink"), byKey), """
                {"topology":"t","operator":"sink","values":{"a":"x","b":3,"c":{"n":1.5},"d":null}}""");
    }

    @Test
    void writesTheCheckpointsWithTheCheckpointingStatusAndCheckpointIdsAsNumbers() {
        TopologyCheckpoints checkpoints = new TopologyCheckpoints(TOPOLOGY, CheckpointId.of(7),
                new TopologyCheckpoints.Checkpointing("ACTIVE", null, 1000, 60000, 1, 0, 0),
                List.of(new CheckpointSummary(CheckpointId.of(8), CheckpointSummary.FAILED, T0, null, null, 0,
                                "TIMEOUT", "late"),
                        new CheckpointSummary(CheckpointId.of(7), CheckpointSummary.COMPLETED, T0,
                                T0.plusMillis(85), 85L, 1000, null, null)));

        assertRoundTrip(checkpoints, """
                {"topology":"t","latestCompleted":7,"checkpointing":{"state":"ACTIVE","reason":null,\
                "intervalMs":1000,"timeoutMs":60000,"maxConcurrent":1,"skipped":0,"unrecordedFailures":0},\
                "checkpoints":[{"checkpointId":8,"status":"FAILED","triggeredAt":"2026-01-02T03:04:05Z",\
                "completedAt":null,"durationMillis":null,"sizeBytes":0,"failureReason":"TIMEOUT",\
                "failureMessage":"late"},{"checkpointId":7,"status":"COMPLETED",\
                "triggeredAt":"2026-01-02T03:04:05Z","completedAt":"2026-01-02T03:04:05.085Z","durationMillis":85,\
                "sizeBytes":1000,"failureReason":null,"failureMessage":null}]}""");
        assertThat(checkpoints.completedCount()).isEqualTo(1);
        assertThat(checkpoints.latestCompletedCheckpoint()).map(CheckpointSummary::checkpointId)
                .contains(CheckpointId.of(7));
    }

    @Test
    void writesTheCheckpointsOfATopologyNotCheckpointedYet() {
        assertRoundTrip(new TopologyCheckpoints(TOPOLOGY, null, null, List.of()), """
                {"topology":"t","latestCompleted":null,"checkpointing":null,"checkpoints":[]}""");
    }

    @Test
    void writesACheckpointsSummaryFlatWithEachTasksAckAndTheTasksMissing() {
        TaskId count = TaskId.parse("t/count#0");
        CheckpointDetail detail = CheckpointDetail.of(TOPOLOGY, new CheckpointSummary(CheckpointId.of(8),
                        CheckpointSummary.FAILED, T0, T0.plusMillis(900), 900L, 0, "TIMEOUT", "late"),
                List.of(SOURCE, count), Map.of(SOURCE, CheckpointDetail.TaskAckState.acked(SOURCE, T0.plusMillis(40),
                        64, 1, 2))).withHosts(Map.of(SOURCE, HOST));

        assertRoundTrip(detail, """
                {"topology":"t","checkpointId":8,"status":"FAILED","triggeredAt":"2026-01-02T03:04:05Z",\
                "completedAt":"2026-01-02T03:04:05.900Z","durationMillis":900,"sizeBytes":0,"failureReason":"TIMEOUT",\
                "failureMessage":"late","tasks":[{"task":"t/source#0","host":"host-1","acked":true,\
                "ackedAt":"2026-01-02T03:04:05.040Z","sizeBytes":64,"syncMillis":1,"asyncMillis":2},\
                {"task":"t/count#0","host":null,"acked":false,"ackedAt":null,"sizeBytes":null,"syncMillis":null,\
                "asyncMillis":null}],"missingTasks":["t/count#0"]}""");
        assertThat(detail.task(count)).hasValueSatisfying(task -> assertThat(task.acked()).isFalse());
    }

    @Test
    void writesATriggeredCheckpointsId() {
        assertRoundTrip(new CheckpointTriggered(CheckpointId.of(8)), """
                {"checkpointId":8}""");
    }

    @Test
    void writesTheGroupsOfALocalRecoveryAndItsTargetHostsFlat() {
        RecoveryView recovery = new RecoveryView(4, TOPOLOGY, List.of(TaskId.parse("t/count#1")),
                new RecoveryView.Detection(new HostId("host-2"), T0, T0.plusMillis(300), 300, "HEARTBEAT_TIMEOUT"),
                new RecoveryView.Restoration(0, CheckpointId.of(3), RecoveryMode.LOCAL, false, new RecoveryForecasts(
                        new RecoveryForecast("LOCAL", 250.0, 20.0, 8000, List.of(
                                new RecoveryForecast.Step("detection", 200.0, "300 ms less 100 ms"))),
                        new RecoveryForecast("GLOBAL", null, null, 90000, List.of()), "LOCAL", "GLOBAL never",
                        "LOCAL")),
                new RecoveryView.Timings(T0.plusSeconds(1), T0.plusSeconds(2), 90L, 240L),
                new RecoveryView.Outcome(RecoveryView.RECOVERED, null, "ok"),
                new LocalRecoveryView(T0, Map.of(TaskId.parse("t/count#1"), new HostId("host-4")), 1,
                        new LocalRecoveryView.TargetHosts(20, 10, 5, 300), 12345L, 99000L, null));

        assertRoundTrip(recovery, """
                {"id":4,"topology":"t","tasks":["t/count#1"],"failedHost":"host-2",\
                "lastHeartbeat":"2026-01-02T03:04:05Z","detectedAt":"2026-01-02T03:04:05.300Z","detectionMillis":300,\
                "detectionCause":"HEARTBEAT_TIMEOUT","epoch":0,"restoredFrom":3,"mode":"LOCAL",\
                "otherTasksPaused":false,"forecast":{"local":{"mode":"LOCAL","totalMillis":250.0,"catchUpMillis":20.0,\
                "reprocessedRecords":8000,"steps":[{"name":"detection","millis":200.0,\
                "explanation":"300 ms less 100 ms"}]},\
                "global":{"mode":"GLOBAL","totalMillis":null,"catchUpMillis":null,"reprocessedRecords":90000,\
                "steps":[]},"faster":"LOCAL","reason":"GLOBAL never","chosen":"LOCAL"},\
                "restoredAt":"2026-01-02T03:04:06Z","caughtUpAt":"2026-01-02T03:04:07Z",\
                "restoreMillis":90,"catchUpMillis":240,"status":"RECOVERED","failureReason":null,"message":"ok",\
                "local":{"requestedAt":"2026-01-02T03:04:05Z","placedOn":{"t/count#1":"host-4"},"standbyHosts":1,\
                "snapshotMillis":20,"decisionMillis":10,"startMillis":5,"decisionBytes":300,"replayedRecords":12345,\
                "replayedBytes":99000,"fallbackReason":null}}""");
        assertThat(recovery.isLocal()).isTrue();
        assertThat(recovery.isRecovered()).isTrue();
        assertThat(recovery.placedAnyTaskOn(new HostId("host-4"))).isTrue();
        assertThat(recovery.placedAnyTaskOn(new HostId("host-2"))).isFalse();
    }

    @Test
    void writesARecoveryJustStartedWithItsUnknownsAsNull() {
        RecoveryView recovery = new RecoveryView(5, TOPOLOGY, List.of(TaskId.parse("t/count#1")),
                new RecoveryView.Detection(new HostId("host-2"), T0, T0.plusMillis(300), 300, null),
                new RecoveryView.Restoration(0, null, RecoveryMode.GLOBAL, null),
                new RecoveryView.Timings(null, null, null, null),
                new RecoveryView.Outcome(RecoveryView.ABANDONED, RecoveryView.SUPERSEDED, "superseded"), null);

        assertRoundTrip(recovery, """
                {"id":5,"topology":"t","tasks":["t/count#1"],"failedHost":"host-2",\
                "lastHeartbeat":"2026-01-02T03:04:05Z","detectedAt":"2026-01-02T03:04:05.300Z","detectionMillis":300,\
                "detectionCause":null,"epoch":0,"restoredFrom":null,"mode":"GLOBAL","otherTasksPaused":null,"forecast":null,\
                "restoredAt":null,"caughtUpAt":null,"restoreMillis":null,"catchUpMillis":null,"status":"ABANDONED",\
                "failureReason":"SUPERSEDED","message":"superseded","local":null}""");
        assertThat(recovery.isSuperseded()).isTrue();
        assertThat(recovery.placedAnyTaskOn(new HostId("host-2"))).isFalse();
    }

    @Test
    void writesAHostWithoutItsLivenessQuery() {
        assertRoundTrip(new HostView(HOST, HostKind.VOTER, URI.create("http://127.0.0.1:9"), "tcp://127.0.0.1:9",
                        HostView.LIVE, T0, List.of()),
                """
                {"hostId":"host-1","kind":"VOTER","controlUrl":"http://127.0.0.1:9","dataEndpoint":"tcp://127.0.0.1:9",\
                "status":"LIVE","lastHeartbeat":"2026-01-02T03:04:05Z","tasks":[]}""");
    }

    @Test
    void readsAHostWithoutAKindAsAPeHost() {
        assertThat(JSON.readValue("""
                {"hostId":"host-1","controlUrl":"http://127.0.0.1:9","dataEndpoint":"tcp://127.0.0.1:9",
                 "status":"LIVE","tasks":[]}""", HostView.class).kind()).isEqualTo(HostKind.PE);
    }

    @Test
    void readsAProblemDetailWithItsFieldErrors() {
        Problem problem = JSON.readValue("""
                {"type":"urn:steadfast:problem:invalid-topology","title":"Bad Request","status":400,
                 "detail":"1 error","reason":"INVALID_TOPOLOGY",
                 "errors":[{"field":"operators[1].type","operator":"count","message":"unknown type"}]}""",
                Problem.class);

        assertThat(problem).isEqualTo(new Problem(400, "Bad Request", "1 error", "INVALID_TOPOLOGY",
                List.of(new FieldError("operators[1].type", "count", "unknown type"))));
        assertRoundTrip(problem, """
                {"status":400,"title":"Bad Request","detail":"1 error","reason":"INVALID_TOPOLOGY",\
                "errors":[{"field":"operators[1].type","operator":"count","message":"unknown type"}]}""");
    }

    private static void assertRoundTrip(Object body, String json) {
        String written = JSON.writeValueAsString(body);

        assertThat(written).isEqualTo(json);
        assertThat(JSON.readValue(written, body.getClass())).isEqualTo(body);
    }
}
