package io.steadfast.router.checkpoint;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.protocol.store.CheckpointCompletion;
import io.steadfast.protocol.store.CheckpointCreation;
import io.steadfast.protocol.store.CheckpointFailureReport;
import io.steadfast.protocol.store.CheckpointRecordList;
import io.steadfast.protocol.store.CheckpointRecordView;
import io.steadfast.protocol.store.RecordedAck;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * {@link CheckpointRecords} over the checkpoint-service's {@code /api/v1/checkpoints/{topology}} API. Thread-safe;
 * timeouts come from the client it is given.
 */
public final class HttpCheckpointRecords implements CheckpointRecords {

    private final RestClient http;
    private final URI baseUrl;

    /** @param http a client whose base URL is the checkpoint-service's */
    public HttpCheckpointRecords(RestClient http, URI baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    /** The incarnations go as {@code "incarnations": {"<task>": n}}, for the tasks whose incarnation is not 0. */
    @Override
    public void create(TopologyId topology, long checkpointId, List<TaskId> tasks, Map<TaskId, Integer> incarnations,
                       Instant triggeredAt) {
        Map<TaskId, Integer> notFirst = new TreeMap<>(incarnations);
        notFirst.values().removeIf(incarnation -> incarnation == 0);
        call("create checkpoint " + checkpointId + " of '" + topology + "'", () -> http.post()
                .uri("/api/v1/checkpoints/{topology}", topology.value()).contentType(MediaType.APPLICATION_JSON)
                .body(new CheckpointCreation(new CheckpointId(checkpointId), tasks, notFirst, triggeredAt))
                .retrieve().toBodilessEntity());
    }

    @Override
    public void acknowledge(TopologyId topology, long checkpointId, TaskAck ack) {
        call("record the ack of " + ack.task() + " for checkpoint " + checkpointId, () -> http.put()
                .uri("/api/v1/checkpoints/{topology}/{id}/acks", topology.value(), checkpointId)
                .contentType(MediaType.APPLICATION_JSON).body(recorded(ack))
                .retrieve().toBodilessEntity());
    }

    @Override
    public void complete(TopologyId topology, long checkpointId) {
        call("complete checkpoint " + checkpointId + " of '" + topology + "'", () -> http.post()
                .uri("/api/v1/checkpoints/{topology}/{id}/complete", topology.value(), checkpointId)
                .retrieve().toBodilessEntity());
    }

    /** One call: the acks go with the completion (see the checkpoint-service's {@code POST .../complete}). */
    @Override
    public void complete(TopologyId topology, long checkpointId, List<TaskAck> acks) {
        CheckpointCompletion body = new CheckpointCompletion(acks.stream().map(HttpCheckpointRecords::recorded)
                .toList());
        call("complete checkpoint " + checkpointId + " of '" + topology + "' with " + acks.size() + " acks",
                () -> http.post().uri("/api/v1/checkpoints/{topology}/{id}/complete", topology.value(), checkpointId)
                        .contentType(MediaType.APPLICATION_JSON).body(body)
                        .retrieve().toBodilessEntity());
    }

    private static RecordedAck recorded(TaskAck ack) {
        return new RecordedAck(ack.task(), ack.sizeBytes(), ack.syncMillis(), ack.asyncMillis());
    }

    @Override
    public void fail(TopologyId topology, long checkpointId, CheckpointFailureReason reason, String message,
                     List<TaskAck> acks) {
        CheckpointFailureReport body = new CheckpointFailureReport(reason.name(), message,
                acks.isEmpty() ? null : acks.stream().map(HttpCheckpointRecords::recorded).toList());
        call("fail checkpoint " + checkpointId + " of '" + topology + "'", () -> http.post()
                .uri("/api/v1/checkpoints/{topology}/{id}/fail", topology.value(), checkpointId)
                .contentType(MediaType.APPLICATION_JSON).body(body)
                .retrieve().toBodilessEntity());
    }

    @Override
    public List<CheckpointSummary> list(TopologyId topology) {
        CheckpointRecordList body = call("list the checkpoints of '" + topology + "'", () -> http.get()
                .uri("/api/v1/checkpoints/{topology}", topology.value()).retrieve().body(CheckpointRecordList.class));
        return body == null || body.checkpoints() == null ? List.of()
                : body.checkpoints().stream().map(HttpCheckpointRecords::statsOf).toList();
    }

    private static CheckpointSummary statsOf(CheckpointRecordView record) {
        CheckpointRecordView.Timing timing = record.timing();
        CheckpointRecordView.Failure failure = record.failure();
        return new CheckpointSummary(record.checkpointId(), record.status(), timing.triggeredAt(),
                timing.completedAt(), timing.durationMillis(), record.sizeBytes(),
                failure == null ? null : failure.reason(), failure == null ? null : failure.message());
    }

    /** {@code GET .../{checkpointId}}: the service's 404 (no such checkpoint or topology) is empty. */
    @Override
    public Optional<CheckpointDetail> find(TopologyId topology, long checkpointId) {
        try {
            CheckpointRecordView body = http.get()
                    .uri("/api/v1/checkpoints/{topology}/{id}", topology.value(), checkpointId)
                    .retrieve().body(CheckpointRecordView.class);
            return Optional.ofNullable(body).map(HttpCheckpointRecords::detailOf);
        } catch (HttpClientErrorException.NotFound e) {
            return Optional.empty();
        } catch (RestClientException e) {
            throw failure("read checkpoint " + checkpointId + " of '" + topology + "'", e);
        }
    }

    private static CheckpointDetail detailOf(CheckpointRecordView record) {
        CheckpointRecordView.Tasks tasks = record.tasks();
        Map<TaskId, CheckpointDetail.TaskAckState> acks = new LinkedHashMap<>();
        for (CheckpointRecordView.StoredAck ack : tasks.acks() == null ? List.<CheckpointRecordView.StoredAck>of()
                : tasks.acks()) {
            acks.put(ack.task(), CheckpointDetail.TaskAckState.acked(ack.task(), ack.ackedAt(), ack.sizeBytes(),
                    ack.syncMillis(), ack.asyncMillis()));
        }
        return CheckpointDetail.of(record.topology(), statsOf(record),
                tasks.expectedTasks() == null ? List.of() : tasks.expectedTasks(), acks);
    }

    @Override
    public OptionalLong latestCompleted(TopologyId topology) {
        try {
            CheckpointRecordView body = http.get()
                    .uri("/api/v1/checkpoints/{topology}/latest-completed", topology.value())
                    .retrieve().body(CheckpointRecordView.class);
            return body == null ? OptionalLong.empty() : OptionalLong.of(body.checkpointId().value());
        } catch (HttpClientErrorException.NotFound e) {
            return OptionalLong.empty();
        } catch (RestClientException e) {
            throw failure("read the latest completed checkpoint of '" + topology + "'", e);
        }
    }

    @Override
    public void delete(TopologyId topology) {
        call("delete the checkpoints of '" + topology + "'", () -> http.delete()
                .uri("/api/v1/checkpoints/{topology}", topology.value()).retrieve().toBodilessEntity());
    }

    private <T> T call(String what, Supplier<T> request) {
        try {
            return request.get();
        } catch (RestClientException e) {
            throw failure(what, e);
        }
    }

    private CheckpointRecordsException failure(String what, RestClientException e) {
        CheckpointRecordsException.Reason reason = reasonOf(e);
        String action = reason == CheckpointRecordsException.Reason.UNAVAILABLE
                ? "; check that it runs and steadfast.router.checkpoint.service-url is right"
                : "";
        return new CheckpointRecordsException(reason, "Checkpoint-service at " + baseUrl + " could not " + what + ": "
                + describe(e) + action, e);
    }

    /** The client's message, with the cause's class instead of its message when that is null (connection refused). */
    private static String describe(RestClientException e) {
        String message = String.valueOf(e.getMessage());
        Throwable cause = e.getMostSpecificCause();
        return message.endsWith(": null") && cause != e
                ? message.substring(0, message.length() - "null".length()) + cause.getClass().getSimpleName()
                : message;
    }

    private static CheckpointRecordsException.Reason reasonOf(RestClientException e) {
        if (e instanceof ResourceAccessException || e instanceof HttpServerErrorException) {
            return CheckpointRecordsException.Reason.UNAVAILABLE;
        }
        if (e instanceof HttpClientErrorException.NotFound) {
            return CheckpointRecordsException.Reason.NOT_FOUND;
        }
        if (e instanceof HttpClientErrorException.Conflict) {
            return CheckpointRecordsException.Reason.CONFLICT;
        }
        return CheckpointRecordsException.Reason.REJECTED;
    }
}
