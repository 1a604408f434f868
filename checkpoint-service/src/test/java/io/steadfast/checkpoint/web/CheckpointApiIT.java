package io.steadfast.checkpoint.web;

import static io.steadfast.checkpoint.web.HttpApi.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** The checkpoint API through real HTTP: lifecycle, problems, retention, health and metrics. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.checkpoint.retention.completed=2")
@Timeout(300)
class CheckpointApiIT extends ServiceOverHttp {

    @Autowired
    MeterRegistry meters;

    private HttpApi.Reply create(String topology, long id, String... tasks) {
        List<String> quoted = new ArrayList<>();
        for (String task : tasks) {
            quoted.add("\"" + task + "\"");
        }
        return api.postJson("/api/v1/checkpoints/" + topology, """
                {"checkpointId": %d, "tasks": [%s], "triggeredAt": "2026-01-01T10:00:00Z"}"""
                .formatted(id, String.join(",", quoted)));
    }

    private void upload(String topology, long id, String task, String content) {
        assertThat(api.putBytes("/api/v1/snapshots/" + topology + "/" + id + "?task=" + encode(task),
                content.getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(201);
    }

    private HttpApi.Reply ack(String topology, long id, String task) {
        return api.putJson("/api/v1/checkpoints/" + topology + "/" + id + "/acks", """
                {"task": "%s", "syncMillis": 2, "asyncMillis": 30}""".formatted(task));
    }

    private HttpApi.Reply complete(String topology, long id) {
        return api.postJson("/api/v1/checkpoints/" + topology + "/" + id + "/complete", "");
    }

    /** Creates, uploads, acks and completes a checkpoint of one task. */
    private void completedCheckpoint(String topology, long id) {
        String task = topology + "/op#0";
        assertThat(create(topology, id, task).status()).isEqualTo(201);
        upload(topology, id, task, "state " + id);
        assertThat(ack(topology, id, task).status()).isEqualTo(200);
        assertThat(complete(topology, id).status()).isEqualTo(200);
    }

    @Test
    void createsACheckpointExpectingTheIncarnationsGivenAndRefusesBadOnesNamingTheField() {
        HttpApi.Reply created = api.postJson("/api/v1/checkpoints/inc", """
                {"checkpointId": 1, "tasks": ["inc/source#0", "inc/sink#0"], "incarnations": {"inc/sink#0": 3}}""");

        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.json().get("expectedIncarnations").get("inc/sink#0").asInt()).isEqualTo(3);
        assertThat(api.get("/api/v1/checkpoints/inc/1").json().get("expectedIncarnations").size()).isEqualTo(1);
        HttpApi.Reply negative = api.postJson("/api/v1/checkpoints/inc", """
                {"checkpointId": 2, "tasks": ["inc/sink#0"], "incarnations": {"inc/sink#0": -1}}""");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("field").asString()).isEqualTo("incarnations['inc/sink#0']");
        HttpApi.Reply stranger = api.postJson("/api/v1/checkpoints/inc", """
                {"checkpointId": 3, "tasks": ["inc/sink#0"], "incarnations": {"inc/source#0": 1}}""");
        assertThat(stranger.status()).isEqualTo(400);
        assertThat(stranger.json().get("detail").asString()).contains("'inc/source#0'", "not one of the tasks");
    }

    @Test
    void answersACheckpointAsOneFlatObject() {
        JsonNode created = create("flat", 1, "flat/source#0").json();

        assertThat(created.propertyNames()).containsExactlyInAnyOrder("topology", "checkpointId", "status",
                "triggeredAt", "completedAt", "durationMillis", "sizeBytes", "expectedTasks", "expectedIncarnations",
                "acks", "missingAcks", "failure");
        assertThat(created.get("triggeredAt").asString()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(created.get("expectedTasks").get(0).asString()).isEqualTo("flat/source#0");
    }

    @Test
    void runsACheckpointFromCreationThroughAcksToCompletion() {
        HttpApi.Reply created = create("life", 1, "life/source#0", "life/sink#0");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("status").asString()).isEqualTo("PENDING");
        assertThat(created.json().get("missingAcks")).hasSize(2);

        upload("life", 1, "life/source#0", "12345");
        HttpApi.Reply acked = ack("life", 1, "life/source#0");
        assertThat(acked.status()).isEqualTo(200);
        assertThat(acked.json().get("acks").get(0).get("sizeBytes").asLong()).isEqualTo(5);
        assertThat(acked.json().get("acks").get(0).get("asyncMillis").asLong()).isEqualTo(30);

        HttpApi.Reply incomplete = complete("life", 1);
        assertThat(incomplete.status()).isEqualTo(409);
        assertThat(incomplete.contentType()).startsWith(PROBLEM);
        assertThat(incomplete.json().get("tasks").get(0).asString()).isEqualTo("life/sink#0");
        assertThat(incomplete.json().get("detail").asString()).contains("life/sink#0", "not acknowledged");

        upload("life", 1, "life/sink#0", "123");
        ack("life", 1, "life/sink#0");
        double completedBefore = completedCount("life");
        HttpApi.Reply completed = complete("life", 1);

        assertThat(completed.status()).isEqualTo(200);
        JsonNode record = completed.json();
        assertThat(record.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(record.get("sizeBytes").asLong()).isEqualTo(8);
        assertThat(record.get("durationMillis").asLong()).isPositive();
        assertThat(record.get("completedAt").asString()).isNotBlank();
        assertThat(completedCount("life")).isEqualTo(completedBefore + 1);
        assertThat(api.get("/api/v1/checkpoints/life/latest-completed").json().get("checkpointId").asLong())
                .isEqualTo(1);
        assertThat(api.get("/api/v1/checkpoints/life/1").json().get("status").asString()).isEqualTo("COMPLETED");
        assertThat(ack("life", 1, "life/sink#0").status()).isEqualTo(409);
        assertThat(api.putBytes("/api/v1/snapshots/life/1?task=" + encode("life/sink#0"), new byte[1]).status())
                .isEqualTo(409);
    }

    @Test
    void aBatchForACompletedCheckpointIsRefusedNamingItsTasksAndStoresNothing() {
        completedCheckpoint("sealed", 1);
        byte[] body = batchOf("sealed/op#0", "changed", "sealed/op#1", "new");

        HttpApi.Reply refused = api.postBytes("/api/v1/snapshots/sealed/1/batch", body);

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.contentType()).startsWith(PROBLEM);
        assertThat(refused.json().get("tasks").toString()).contains("sealed/op#0", "sealed/op#1");
        assertThat(refused.json().get("detail").asString()).contains("COMPLETED", "under a pending checkpoint");
        assertThat(refused.json().get("entry").asInt()).isZero();
        assertThat(refused.json().get("stored")).isEmpty();
        assertThat(api.get("/api/v1/snapshots/sealed/1?task=" + encode("sealed/op#0")).text()).isEqualTo("state 1");
        assertThat(api.get("/api/v1/snapshots/sealed/1?task=" + encode("sealed/op#1")).status()).isEqualTo(404);
    }

    /** The batch upload format: for each entry, the task id's length and UTF-8 bytes, the content's length and bytes. */
    private static byte[] batchOf(String... taskAndContent) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        try {
            for (int i = 0; i < taskAndContent.length; i += 2) {
                byte[] id = taskAndContent[i].getBytes(StandardCharsets.UTF_8);
                byte[] content = taskAndContent[i + 1].getBytes(StandardCharsets.UTF_8);
                out.writeInt(id.length);
                out.write(id);
                out.writeLong(content.length);
                out.write(content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return body.toByteArray();
    }

    @Test
    void completesWithEveryAckInOneCall() {
        create("batch", 1, "batch/source#0", "batch/sink#0");
        upload("batch", 1, "batch/source#0", "12345");
        String acks = """
                {"acks": [{"task": "batch/source#0", "sizeBytes": 5, "syncMillis": 1, "asyncMillis": 7},
                          {"task": "batch/sink#0", "syncMillis": 2, "asyncMillis": 9}]}""";

        HttpApi.Reply noSnapshot = api.postJson("/api/v1/checkpoints/batch/1/complete", acks);
        assertThat(noSnapshot.status()).isEqualTo(409);
        assertThat(noSnapshot.json().get("reason").asString()).isEqualTo("MISSING_SNAPSHOTS");
        assertThat(noSnapshot.json().get("tasks").get(0).asString()).isEqualTo("batch/sink#0");
        HttpApi.Reply unexpected = api.postJson("/api/v1/checkpoints/batch/1/complete",
                "{\"acks\": [{\"task\": \"batch/other#0\"}]}");
        assertThat(unexpected.status()).isEqualTo(400);
        assertThat(unexpected.json().get("detail").asString()).contains("batch/other#0");
        HttpApi.Reply negative = api.postJson("/api/v1/checkpoints/batch/1/complete",
                "{\"acks\": [{\"task\": \"batch/sink#0\", \"syncMillis\": -1}]}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("field").asString()).isEqualTo("acks[0].syncMillis");
        assertThat(api.get("/api/v1/checkpoints/batch/1").json().get("status").asString()).isEqualTo("PENDING");

        upload("batch", 1, "batch/sink#0", "123");
        HttpApi.Reply completed = api.postJson("/api/v1/checkpoints/batch/1/complete", acks);

        assertThat(completed.status()).isEqualTo(200);
        assertThat(completed.json().get("status").asString()).isEqualTo("COMPLETED");
        assertThat(completed.json().get("sizeBytes").asLong()).isEqualTo(8);
        assertThat(completed.json().get("acks")).hasSize(2);
        assertThat(completed.json().get("acks").findValuesAsString("task"))
                .containsExactlyInAnyOrder("batch/source#0", "batch/sink#0");
        assertThat(api.postJson("/api/v1/checkpoints/batch/1/complete", acks).status()).as("again: unchanged")
                .isEqualTo(200);
    }

    @Test
    void refusesADuplicateCheckpointAndAnAckWithoutItsSnapshot() {
        assertThat(create("dup", 1, "dup/a#0").status()).isEqualTo(201);

        HttpApi.Reply duplicate = create("dup", 1, "dup/a#0");
        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.json().get("checkpointId").asLong()).isEqualTo(1);
        assertThat(duplicate.json().get("type").asString()).isEqualTo("urn:steadfast:problem:already-exists");
        assertThat(duplicate.json().get("reason").asString()).isEqualTo("ALREADY_EXISTS");
        assertThat(duplicate.json().get("topology").asString()).isEqualTo("dup");

        HttpApi.Reply noSnapshot = ack("dup", 1, "dup/a#0");
        assertThat(noSnapshot.status()).isEqualTo(409);
        assertThat(noSnapshot.contentType()).startsWith(PROBLEM);
        assertThat(noSnapshot.json().get("reason").asString()).isEqualTo("MISSING_SNAPSHOTS");
        assertThat(noSnapshot.json().get("detail").asString()).contains("dup/a#0", "PUT /api/v1/snapshots/dup/1");

        HttpApi.Reply unexpected = ack("dup", 1, "dup/b#0");
        assertThat(unexpected.status()).isEqualTo(400);
        assertThat(unexpected.json().get("detail").asString()).contains("dup/b#0", "dup/a#0");
    }

    @Test
    void failsACheckpointWithAReason() {
        create("failing", 1, "failing/a#0");

        HttpApi.Reply failed = api.postJson("/api/v1/checkpoints/failing/1/fail",
                "{\"reason\": \"TIMEOUT\", \"message\": \"failing/a#0 did not acknowledge within 10s\"}");

        assertThat(failed.status()).isEqualTo(200);
        assertThat(failed.json().get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.json().get("failure").get("reason").asString()).isEqualTo("TIMEOUT");
        assertThat(failed.json().get("failure").get("message").asString()).contains("10s");
        assertThat(meters.counter("steadfast.checkpoint.failed", "topology", "failing", "reason", "TIMEOUT")
                .count()).isEqualTo(1);
        assertThat(complete("failing", 1).status()).isEqualTo(409);
        HttpApi.Reply badReason = api.postJson("/api/v1/checkpoints/failing/1/fail", "{\"reason\": \"BORED\"}");
        assertThat(badReason.status()).isEqualTo(400);
        assertThat(badReason.json().get("field").asString()).isEqualTo("reason");
        assertThat(badReason.json().get("detail").asString()).contains("TASK_FAILED");
    }

    @Test
    void recordsTheAcksTakenBeforeAFailureSoTheMissingTasksShow() {
        create("half", 1, "half/source#0", "half/sink#0");
        upload("half", 1, "half/source#0", "12345");

        HttpApi.Reply failed = api.postJson("/api/v1/checkpoints/half/1/fail", """
                {"reason": "TIMEOUT", "message": "half/sink#0 did not acknowledge",
                 "acks": [{"task": "half/source#0", "sizeBytes": 5, "syncMillis": 1, "asyncMillis": 7}]}""");

        assertThat(failed.status()).isEqualTo(200);
        assertThat(failed.json().get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.json().get("acks").findValuesAsString("task")).containsExactly("half/source#0");
        assertThat(failed.json().get("acks").get(0).get("sizeBytes").asLong()).isEqualTo(5);
        assertThat(api.get("/api/v1/checkpoints/half/1").json().get("acks")).hasSize(1);

        create("half", 2, "half/source#0");
        HttpApi.Reply foreign = api.postJson("/api/v1/checkpoints/half/2/fail",
                "{\"reason\": \"TIMEOUT\", \"acks\": [{\"task\": \"half/other#0\"}]}");
        assertThat(foreign.status()).as("an ack of a task the checkpoint does not expect").isEqualTo(400);
        assertThat(foreign.json().get("detail").asString()).contains("half/other#0");
    }

    @Test
    void keepsTheLastCompletedCheckpointsAndDeletesOlderOnesWithTheirSnapshots() {
        completedCheckpoint("kept", 1);
        create("kept", 2, "kept/op#0");
        upload("kept", 2, "kept/op#0", "abandoned");
        completedCheckpoint("kept", 3);
        api.postJson("/api/v1/checkpoints/kept/4/fail", "{}");
        create("kept", 4, "kept/op#0");
        api.postJson("/api/v1/checkpoints/kept/4/fail", "{\"reason\": \"TASK_FAILED\"}");
        create("kept", 6, "kept/op#0");

        completedCheckpoint("kept", 5);

        // retention runs after the completion is answered
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(api.get("/api/v1/checkpoints/kept/" + 1).status()).isEqualTo(404));
        JsonNode list = api.get("/api/v1/checkpoints/kept").json();
        List<Long> ids = new ArrayList<>();
        list.get("checkpoints").forEach(record -> ids.add(record.get("checkpointId").asLong()));
        assertThat(ids).containsExactly(6L, 5L, 3L);
        assertThat(list.get("statistics").get("completed").asInt()).isEqualTo(2);
        assertThat(list.get("statistics").get("pending").asInt()).isEqualTo(1);
        assertThat(list.get("statistics").get("latestCompleted").asLong()).isEqualTo(5);
        for (long gone : new long[] {1, 2, 4}) {
            assertThat(api.get("/api/v1/checkpoints/kept/" + gone).status()).as("record %d", gone).isEqualTo(404);
            assertThat(api.get("/api/v1/snapshots/kept/" + gone).json()).as("snapshots %d", gone).isEmpty();
        }
        assertThat(api.get("/api/v1/snapshots/kept/3?task=" + encode("kept/op#0")).text()).isEqualTo("state 3");
        assertThat(api.get("/api/v1/snapshots/kept/5?task=" + encode("kept/op#0")).text()).isEqualTo("state 5");
    }

    @Test
    void latestCompletedIsNotFoundUntilOneCompletes() {
        create("fresh", 1, "fresh/a#0");

        HttpApi.Reply none = api.get("/api/v1/checkpoints/fresh/latest-completed");

        assertThat(none.status()).isEqualTo(404);
        assertThat(none.contentType()).startsWith(PROBLEM);
        assertThat(none.json().get("topology").asString()).isEqualTo("fresh");
    }

    @Test
    void deletesEverythingOfACancelledTopology() {
        completedCheckpoint("cancelled", 1);
        completedCheckpoint("cancelled-not", 1);

        HttpApi.Reply deleted = api.delete("/api/v1/checkpoints/cancelled");

        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().get("checkpointsDeleted").asLong()).isEqualTo(1);
        assertThat(deleted.json().get("snapshotsDeleted").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/checkpoints/cancelled").json().get("checkpoints")).isEmpty();
        assertThat(api.get("/api/v1/snapshots/cancelled/1").json()).isEmpty();
        assertThat(api.get("/api/v1/checkpoints/cancelled-not/latest-completed").status()).isEqualTo(200);
    }

    @Test
    void badRequestsAreProblemsNamingTheField() {
        HttpApi.Reply missingId = api.postJson("/api/v1/checkpoints/bad", "{\"tasks\": [\"bad/a#0\"]}");
        assertThat(missingId.status()).isEqualTo(400);
        assertThat(missingId.json().get("field").asString()).isEqualTo("checkpointId");

        HttpApi.Reply foreignTask = create("bad", 1, "bad/a#0", "other/a#0");
        assertThat(foreignTask.status()).isEqualTo(400);
        assertThat(foreignTask.json().get("field").asString()).isEqualTo("tasks[1]");

        HttpApi.Reply badTopology = api.get("/api/v1/checkpoints/Bad_Topology");
        assertThat(badTopology.status()).isEqualTo(400);
        assertThat(badTopology.json().get("field").asString()).isEqualTo("topology");

        HttpApi.Reply notJson = api.postJson("/api/v1/checkpoints/bad", "{checkpointId");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.contentType()).startsWith(PROBLEM);

        assertThat(api.get("/api/v1/checkpoints/bad/99").status()).isEqualTo(404);
    }

    @Test
    void malformedIdsInABodyAreProblemsNamingTheFieldInTheWordsOfTheIdsType() {
        HttpApi.Reply negativeId = api.postJson("/api/v1/checkpoints/bad", """
                {"checkpointId": -1, "tasks": ["bad/a#0"]}""");
        assertThat(negativeId.status()).isEqualTo(400);
        assertThat(negativeId.json().get("reason").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(negativeId.json().get("field").asString()).isEqualTo("checkpointId");
        assertThat(negativeId.json().get("detail").asString()).contains("checkpoint id must be >= 0");

        HttpApi.Reply malformedTask = api.postJson("/api/v1/checkpoints/bad/1/complete", """
                {"acks": [{"task": "bad/a#0"}, {"task": "nohash"}]}""");
        assertThat(malformedTask.status()).isEqualTo(400);
        assertThat(malformedTask.json().get("field").asString()).isEqualTo("acks[1].task");
        assertThat(malformedTask.json().get("detail").asString())
                .contains("'nohash' is not of the form topology/operator#subtask")
                .doesNotContain("Source", "reference chain");

        HttpApi.Reply badIncarnation = api.postJson("/api/v1/checkpoints/bad", """
                {"checkpointId": 1, "tasks": ["bad/a#0"], "incarnations": {"bad/a#0": "x"}}""");
        assertThat(badIncarnation.status()).isEqualTo(400);
        assertThat(badIncarnation.json().get("field").asString()).isEqualTo("incarnations['bad/a#0']");
    }

    @Test
    void reportsTheEmbeddedStoreUpAndCountsSnapshotBytes() {
        upload("metered", 1, "metered/a#0", "1234567");

        JsonNode health = api.get("/actuator/health").json();
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("mongo").get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("mongo").get("details").get("store").asString())
                .startsWith("embedded");
        assertThat(api.get("/actuator/health/readiness").json().get("status").asString()).isEqualTo("UP");
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(meters.counter("steadfast.checkpoint.snapshots.bytes", "topology", "metered").count())
                .isEqualTo(7);
        assertThat(api.get("/actuator/prometheus").text()).contains("steadfast_checkpoint_snapshots_bytes_total");
    }

    private double completedCount(String topology) {
        return meters.counter("steadfast.checkpoint.completed", "topology", topology).count();
    }
}
