package io.steadfast.checkpoint.web;

import static io.steadfast.checkpoint.web.HttpApi.encode;
import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.checkpoint.snapshot.SnapshotBatchReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** The snapshot API through real HTTP, on the embedded store with its H2 file in a temporary directory. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(300)
class SnapshotApiIT extends ServiceOverHttp {

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    @Test
    void storesASnapshotByEncodedPathAndReadsItBackBothWays() {
        byte[] bytes = "counts: a=2".getBytes(StandardCharsets.UTF_8);

        HttpApi.Reply put = api.putBytes("/api/v1/snapshots/snap-small/1/" + encode("snap-small/count#0"), bytes);

        assertThat(put.status()).isEqualTo(201);
        JsonNode body = put.json();
        assertThat(body.get("topology").asString()).isEqualTo("snap-small");
        assertThat(body.get("checkpointId").asLong()).isEqualTo(1);
        assertThat(body.get("task").asString()).isEqualTo("snap-small/count#0");
        assertThat(body.get("sizeBytes").asLong()).isEqualTo(bytes.length);
        assertThat(body.get("chunks").asInt()).isEqualTo(1);
        HttpApi.Reply byPath = api.get("/api/v1/snapshots/snap-small/1/" + encode("snap-small/count#0"));
        assertThat(byPath.status()).isEqualTo(200);
        assertThat(byPath.contentType()).startsWith("application/octet-stream");
        assertThat(byPath.body()).isEqualTo(bytes);
        assertThat(api.get("/api/v1/snapshots/snap-small/1?task=" + encode("snap-small/count#0")).body())
                .isEqualTo(bytes);
    }

    @Test
    void storesAFortyMebibyteSnapshotInSeveralChunksAndReturnsItUnchanged() {
        byte[] bytes = random(40 * 1024 * 1024 + 17);

        HttpApi.Reply put = api.putBytes("/api/v1/snapshots/snap-large/3?task=" + encode("snap-large/window#2"),
                bytes);

        assertThat(put.status()).isEqualTo(201);
        assertThat(put.json().get("chunks").asInt()).isEqualTo(11);
        assertThat(put.json().get("sizeBytes").asLong()).isEqualTo(bytes.length);
        HttpApi.Reply get = api.get("/api/v1/snapshots/snap-large/3/" + encode("snap-large/window#2"));
        assertThat(get.status()).isEqualTo(200);
        assertThat(get.body()).isEqualTo(bytes);
    }

    @Test
    void overwritingASnapshotReplacesIt() {
        String path = "/api/v1/snapshots/snap-over/1?task=" + encode("snap-over/a#0");
        api.putBytes(path, random(5 * 1024 * 1024));

        api.putBytes(path, "second".getBytes(StandardCharsets.UTF_8));

        assertThat(api.get(path).text()).isEqualTo("second");
        JsonNode list = api.get("/api/v1/snapshots/snap-over/1").json();
        assertThat(list).hasSize(1);
        assertThat(list.get(0).get("sizeBytes").asLong()).isEqualTo(6);
    }

    @Test
    void uploadsABatchOfSnapshotsAndListsThem() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        for (int subtask = 0; subtask < 5; subtask++) {
            byte[] id = ("snap-batch/map#" + subtask).getBytes(StandardCharsets.UTF_8);
            out.writeInt(id.length);
            out.write(id);
            out.writeLong(subtask * 10L);
            out.write(random(subtask * 10));
        }

        HttpApi.Reply reply = api.postBytes("/api/v1/snapshots/snap-batch/4/batch", body.toByteArray());

        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.json()).hasSize(5);
        JsonNode list = api.get("/api/v1/snapshots/snap-batch/4").json();
        assertThat(list).hasSize(5);
        assertThat(list.get(3).get("task").asString()).isEqualTo("snap-batch/map#3");
        assertThat(list.get(3).get("sizeBytes").asLong()).isEqualTo(30);
        assertThat(api.get("/api/v1/snapshots/snap-batch/4?task=" + encode("snap-batch/map#3")).body())
                .isEqualTo(random(30));
    }

    /** A batch upload whose entries carry the incarnation of the copy of the task that took them. */
    private static byte[] batchWithIncarnations(Map<String, Integer> incarnations, int size) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(SnapshotBatchReader.MAGIC_WITH_INCARNATIONS);
        for (Map.Entry<String, Integer> entry : incarnations.entrySet()) {
            byte[] id = entry.getKey().getBytes(StandardCharsets.UTF_8);
            out.writeInt(id.length);
            out.write(id);
            out.writeInt(entry.getValue());
            out.writeLong(size);
            out.write(random(size));
        }
        return body.toByteArray();
    }

    @Test
    void refusesTheSnapshotsOfASupersededIncarnationWithAConflictNamingTheTaskAndBothIncarnations()
            throws IOException {
        assertThat(api.postJson("/api/v1/checkpoints/snap-fenced", """
                {"checkpointId": 1, "tasks": ["snap-fenced/count#0", "snap-fenced/count#1"],
                 "incarnations": {"snap-fenced/count#1": 2}}""").status()).isEqualTo(201);
        String count1 = "/api/v1/snapshots/snap-fenced/1?task=" + encode("snap-fenced/count#1");

        HttpApi.Reply superseded = api.putBytes(count1 + "&incarnation=1", random(10));

        assertThat(superseded.status()).as(superseded.text()).isEqualTo(409);
        assertThat(superseded.contentType()).startsWith(PROBLEM);
        assertThat(superseded.json().get("type").asString()).isEqualTo("urn:steadfast:problem:superseded-incarnation");
        assertThat(superseded.json().get("reason").asString()).isEqualTo("SUPERSEDED_INCARNATION");
        assertThat(superseded.json().get("tasks").get(0).asString()).isEqualTo("snap-fenced/count#1");
        assertThat(superseded.json().get("detail").asString()).contains("incarnation 2", "incarnation 1",
                "newer copy of the task took over");
        assertThat(api.putBytes(count1, random(11)).status()).as("no incarnation is incarnation 0").isEqualTo(409);
        assertThat(api.get(count1).status()).as("nothing stored").isEqualTo(404);
        assertThat(api.putBytes(count1 + "&incarnation=2", random(12)).status()).isEqualTo(201);
        assertThat(api.putBytes("/api/v1/snapshots/snap-fenced/1/" + encode("snap-fenced/count#0"), random(13))
                .status()).isEqualTo(201);

        Map<String, Integer> stale = new LinkedHashMap<>();
        stale.put("snap-fenced/count#0", 0);
        stale.put("snap-fenced/count#1", 1);
        HttpApi.Reply batch = api.postBytes("/api/v1/snapshots/snap-fenced/1/batch", batchWithIncarnations(stale, 20));
        assertThat(batch.status()).as(batch.text()).isEqualTo(409);
        assertThat(batch.json().get("reason").asString()).isEqualTo("SUPERSEDED_INCARNATION");
        assertThat(batch.json().get("stored")).isEmpty();
        stale.put("snap-fenced/count#1", 2);
        assertThat(api.postBytes("/api/v1/snapshots/snap-fenced/1/batch", batchWithIncarnations(stale, 21)).status())
                .isEqualTo(201);
        assertThat(api.get(count1).body()).isEqualTo(random(21));
        HttpApi.Reply negative = api.putBytes(count1 + "&incarnation=-1", random(1));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("field").asString()).isEqualTo("incarnation");
    }

    @Test
    void readsSeveralSnapshotsBackInOneBatchInTheOrderAskedAndNamesAMissingOne() throws IOException {
        api.putBytes("/api/v1/snapshots/snap-get/2?task=" + encode("snap-get/count#0"), random(40));
        api.putBytes("/api/v1/snapshots/snap-get/2?task=" + encode("snap-get/count#1"), random(7 * 1024 * 1024));
        api.putBytes("/api/v1/snapshots/snap-get/2?task=" + encode("snap-get/sink#0"), new byte[0]);

        HttpApi.Reply batch = api.get("/api/v1/snapshots/snap-get/2/batch?task=" + encode("snap-get/sink#0")
                + "&task=" + encode("snap-get/count#1") + "&task=" + encode("snap-get/count#0"));

        assertThat(batch.status()).isEqualTo(200);
        SnapshotBatchReader reader = new SnapshotBatchReader(new ByteArrayInputStream(batch.body()));
        List<String> tasks = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (SnapshotBatchReader.Entry entry = reader.next(); entry != null; entry = reader.next()) {
            tasks.add(entry.taskId());
            contents.add(entry.content().readAllBytes());
        }
        assertThat(tasks).containsExactly("snap-get/sink#0", "snap-get/count#1", "snap-get/count#0");
        assertThat(contents.get(0)).isEmpty();
        assertThat(contents.get(1)).isEqualTo(random(7 * 1024 * 1024));
        assertThat(contents.get(2)).isEqualTo(random(40));

        HttpApi.Reply missing = api.get("/api/v1/snapshots/snap-get/2/batch?task=" + encode("snap-get/count#0")
                + "&task=" + encode("snap-get/count#9"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().get("task").asString()).isEqualTo("snap-get/count#9");
        HttpApi.Reply foreign = api.get("/api/v1/snapshots/snap-get/2/batch?task=" + encode("other/count#0"));
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.json().get("detail").asString()).contains("belongs to topology 'other'");
    }

    @Test
    void aTruncatedBatchIsABadRequestNamingTheEntryAndWhatWasStored() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        byte[] first = "snap-trunc/a#0".getBytes(StandardCharsets.UTF_8);
        out.writeInt(first.length);
        out.write(first);
        out.writeLong(3);
        out.write(new byte[3]);
        byte[] second = "snap-trunc/a#1".getBytes(StandardCharsets.UTF_8);
        out.writeInt(second.length);
        out.write(second);
        out.writeLong(100);
        out.write(new byte[10]);

        HttpApi.Reply reply = api.postBytes("/api/v1/snapshots/snap-trunc/1/batch", body.toByteArray());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.contentType()).startsWith(PROBLEM);
        assertThat(reply.json().get("entry").asInt()).isEqualTo(1);
        assertThat(reply.json().get("detail").asString()).contains("snap-trunc/a#1", "declares 100 bytes");
        assertThat(reply.json().get("stored").get(0).asString()).isEqualTo("snap-trunc/a#0");
        assertThat(api.get("/api/v1/snapshots/snap-trunc/1?task=" + encode("snap-trunc/a#1")).status())
                .isEqualTo(404);
    }

    @Test
    void aMissingSnapshotIsANotFoundProblemNamingIt() {
        HttpApi.Reply reply = api.get("/api/v1/snapshots/snap-none/8/" + encode("snap-none/x#0"));

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith(PROBLEM);
        JsonNode problem = reply.json();
        assertThat(problem.get("task").asString()).isEqualTo("snap-none/x#0");
        assertThat(problem.get("checkpointId").asLong()).isEqualTo(8);
        assertThat(problem.get("detail").asString()).contains("snap-none/x#0", "PUT /api/v1/snapshots/");
    }

    @Test
    void badIdsAreBadRequestsNamingTheField() {
        HttpApi.Reply wrongTopology = api.putBytes("/api/v1/snapshots/snap-bad/1?task=" + encode("other/a#0"),
                new byte[1]);
        assertThat(wrongTopology.status()).isEqualTo(400);
        assertThat(wrongTopology.json().get("field").asString()).isEqualTo("task");
        assertThat(wrongTopology.json().get("detail").asString()).contains("other", "snap-bad");

        HttpApi.Reply badCheckpoint = api.get("/api/v1/snapshots/snap-bad/minus-one");
        assertThat(badCheckpoint.status()).isEqualTo(400);
        assertThat(badCheckpoint.json().get("field").asString()).isEqualTo("checkpointId");

        HttpApi.Reply badTask = api.get("/api/v1/snapshots/snap-bad/1?task=no-slash");
        assertThat(badTask.status()).isEqualTo(400);
        assertThat(badTask.contentType()).startsWith(PROBLEM);
        assertThat(badTask.json().get("detail").asString()).contains("topology/operator#subtask");
    }
}
