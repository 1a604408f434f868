package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.store.CheckpointCompletion;
import io.steadfast.protocol.store.CheckpointCreation;
import io.steadfast.protocol.store.CheckpointFailureReport;
import io.steadfast.protocol.store.CheckpointRecordList;
import io.steadfast.protocol.store.CheckpointRecordView;
import io.steadfast.protocol.store.RecordedAck;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bodies of the checkpoint-service's checkpoint API, written as the text its clients read (flat records, ids as
 * bare text and numbers, map keys too) and read back to the same values.
 */
class CheckpointStoreJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TopologyId TOPOLOGY = TopologyId.of("w");
    private static final TaskId A = TaskId.parse("w/a#0");
    private static final TaskId B = TaskId.parse("w/b#0");
    private static final Instant TRIGGERED = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant ACKED = Instant.parse("2026-01-01T10:00:00.250Z");
    private static final Instant COMPLETED = Instant.parse("2026-01-01T10:00:00.300Z");

    private static void assertRoundTrip(Object body, String json) {
        assertThat(JSON.writeValueAsString(body)).isEqualTo(json);
        assertThat(JSON.readValue(json, body.getClass())).isEqualTo(body);
    }

    @Test
    void writesACreationWithTaskKeysAndTheCheckpointIdAsANumber() {
        assertRoundTrip(new CheckpointCreation(new CheckpointId(1), List.of(A, B), Map.of(B, 2), TRIGGERED), """
                {"checkpointId":1,"tasks":["w/a#0","w/b#0"],"incarnations":{"w/b#0":2},\
                "triggeredAt":"2026-01-01T10:00:00Z"}""");
    }

    @Test
    void writesAnAckAndACompletionWithItsAcks() {
        RecordedAck ack = new RecordedAck(A, 3L, 1L, 2L);

        assertRoundTrip(ack, """
                {"task":"w/a#0","sizeBytes":3,"syncMillis":1,"asyncMillis":2}""");
        assertRoundTrip(new CheckpointCompletion(List.of(ack)), """
                {"acks":[{"task":"w/a#0","sizeBytes":3,"syncMillis":1,"asyncMillis":2}]}""");
    }

    @Test
    void writesAFailureReport() {
        assertRoundTrip(new CheckpointFailureReport("TIMEOUT", "late"), """
                {"reason":"TIMEOUT","message":"late"}""");
    }

    @Test
    void writesARecordAsOneFlatObject() {
        assertRoundTrip(completed(), """
                {"topology":"w","checkpointId":1,"status":"COMPLETED","triggeredAt":"2026-01-01T10:00:00Z",\
                "completedAt":"2026-01-01T10:00:00.300Z","durationMillis":300,"sizeBytes":7,\
                "expectedTasks":["w/a#0","w/b#0"],"expectedIncarnations":{"w/b#0":2},\
                "acks":[{"task":"w/a#0","sizeBytes":3,"ackedAt":"2026-01-01T10:00:00.250Z","syncMillis":1,\
                "asyncMillis":2},{"task":"w/b#0","sizeBytes":4,"ackedAt":"2026-01-01T10:00:00.250Z","syncMillis":1,\
                "asyncMillis":2}],"missingAcks":[],"failure":null}""");
    }

    @Test
    void writesAPendingRecordWithNullTimesAndAFailedOneWithItsFailure() {
        assertRoundTrip(pending(), """
                {"topology":"w","checkpointId":2,"status":"PENDING","triggeredAt":"2026-01-01T10:00:00Z",\
                "completedAt":null,"durationMillis":null,"sizeBytes":0,"expectedTasks":["w/a#0"],\
                "expectedIncarnations":{},"acks":[],"missingAcks":["w/a#0"],"failure":null}""");
        assertRoundTrip(failed(), """
                {"topology":"w","checkpointId":3,"status":"FAILED","triggeredAt":"2026-01-01T10:00:00Z",\
                "completedAt":"2026-01-01T10:00:00.300Z","durationMillis":300,"sizeBytes":0,\
                "expectedTasks":["w/a#0"],"expectedIncarnations":{},"acks":[],"missingAcks":["w/a#0"],\
                "failure":{"reason":"TIMEOUT","message":"late"}}""");
    }

    @Test
    void writesAListsStatisticsAsOneFlatObject() {
        Map<String, Integer> failures = new LinkedHashMap<>();
        failures.put("TIMEOUT", 1);
        CheckpointRecordList list = new CheckpointRecordList(TOPOLOGY, new CheckpointRecordList.Statistics(
                new CheckpointRecordList.Counts(3, 1, 1, 1),
                new CheckpointRecordList.Latest(new CheckpointId(1), 300L, 7L),
                new CheckpointRecordList.Averages(300L, 7L), failures), List.of(failed(), pending(), completed()));

        String json = JSON.writeValueAsString(list);

        assertThat(json).startsWith("""
                {"topology":"w","statistics":{"total":3,"pending":1,"completed":1,"failed":1,"latestCompleted":1,\
                "latestCompletedDurationMillis":300,"latestCompletedSizeBytes":7,"averageDurationMillis":300,\
                "averageSizeBytes":7,"failuresByReason":{"TIMEOUT":1}},"checkpoints":[{"topology":"w","checkpointId":3,\
                """);
        assertThat(JSON.readValue(json, CheckpointRecordList.class)).isEqualTo(list);
    }

    @Test
    void writesTheStatisticsOfAListWithoutACompletedCheckpointAsNulls() {
        assertRoundTrip(new CheckpointRecordList(TOPOLOGY, new CheckpointRecordList.Statistics(
                new CheckpointRecordList.Counts(0, 0, 0, 0), new CheckpointRecordList.Latest(null, null, null),
                new CheckpointRecordList.Averages(null, null), Map.of()), List.of()), """
                {"topology":"w","statistics":{"total":0,"pending":0,"completed":0,"failed":0,"latestCompleted":null,\
                "latestCompletedDurationMillis":null,"latestCompletedSizeBytes":null,"averageDurationMillis":null,\
                "averageSizeBytes":null,"failuresByReason":{}},"checkpoints":[]}""");
    }

    private static CheckpointRecordView completed() {
        return new CheckpointRecordView(TOPOLOGY, new CheckpointId(1), "COMPLETED",
                new CheckpointRecordView.Timing(TRIGGERED, COMPLETED, 300L), 7,
                new CheckpointRecordView.Tasks(List.of(A, B), Map.of(B, 2), List.of(
                        new CheckpointRecordView.StoredAck(A, 3, ACKED, 1, 2),
                        new CheckpointRecordView.StoredAck(B, 4, ACKED, 1, 2)), List.of()), null);
    }

    private static CheckpointRecordView pending() {
        return new CheckpointRecordView(TOPOLOGY, new CheckpointId(2), "PENDING",
                new CheckpointRecordView.Timing(TRIGGERED, null, null), 0,
                new CheckpointRecordView.Tasks(List.of(A), Map.of(), List.of(), List.of(A)), null);
    }

    private static CheckpointRecordView failed() {
        return new CheckpointRecordView(TOPOLOGY, new CheckpointId(3), "FAILED",
                new CheckpointRecordView.Timing(TRIGGERED, COMPLETED, 300L), 0,
                new CheckpointRecordView.Tasks(List.of(A), Map.of(), List.of(), List.of(A)),
                new CheckpointRecordView.Failure("TIMEOUT", "late"));
    }
}
