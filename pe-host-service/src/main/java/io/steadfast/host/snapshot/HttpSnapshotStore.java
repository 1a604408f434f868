package io.steadfast.host.snapshot;

import io.steadfast.host.config.ServiceProblem;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.MediaType;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * {@link SnapshotStore} over the checkpoint-service's REST API: {@code PUT} and {@code GET
 * /api/v1/snapshots/{topology}/{checkpointId}?task=<taskId>} with an octet-stream body, a {@code PUT} naming the
 * incarnation of the copy of the task that took the snapshot ({@code &incarnation=<n>}). A 409 answer is a closed
 * checkpoint ({@link CheckpointClosedException}), or, with the reason {@code SUPERSEDED_INCARNATION}, a superseded copy
 * of the task ({@link SupersededSnapshotException}). Thread-safe; timeouts come from the client it is given.
 */
public final class HttpSnapshotStore implements SnapshotStore {

    private final RestClient http;
    private final URI baseUrl;

    public HttpSnapshotStore(RestClient http, URI baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    @Override
    public void put(TaskId task, long checkpointId, TakenSnapshot snapshot) {
        URI uri = UriComponentsBuilder.fromUri(uri(task, checkpointId)).queryParam("incarnation",
                snapshot.incarnation()).build(true).toUri();
        try {
            http.put().uri(uri).contentType(MediaType.APPLICATION_OCTET_STREAM).body(snapshot.bytes())
                    .retrieve().toBodilessEntity();
        } catch (HttpClientErrorException.Conflict e) {
            throw refused(e, "the snapshot of " + task + " was not stored", checkpointId, task.topology());
        } catch (RestClientException e) {
            throw new SnapshotStoreException("Checkpoint-service at " + baseUrl + " did not store the snapshot of "
                    + task + " for checkpoint " + checkpointId + ": " + e.getMessage()
                    + "; check that it runs and steadfast.host.checkpoint-url is right", e);
        }
    }

    /** One {@code POST /api/v1/snapshots/{topology}/{checkpointId}/batch} for all of them, in the batch format. */
    @Override
    public void putAll(long checkpointId, Map<TaskId, TakenSnapshot> snapshots) {
        if (snapshots.isEmpty()) {
            return;
        }
        TopologyId topology = snapshots.keySet().iterator().next().topology();
        if (!snapshots.keySet().stream().allMatch(task -> task.topology().equals(topology))) {
            throw new IllegalArgumentException("a batch of snapshots holds one topology's, not " + snapshots.keySet());
        }
        URI uri = UriComponentsBuilder.fromUri(baseUrl).path("/api/v1/snapshots/{topology}/{checkpointId}/batch")
                .buildAndExpand(topology.value(), checkpointId).encode().toUri();
        try {
            http.post().uri(uri).contentType(MediaType.APPLICATION_OCTET_STREAM).body(SnapshotBatch.write(snapshots))
                    .retrieve().toBodilessEntity();
        } catch (HttpClientErrorException.Conflict e) {
            throw refused(e, "the snapshots of " + snapshots.keySet() + " were not all stored", checkpointId,
                    topology);
        } catch (RestClientException e) {
            throw new SnapshotStoreException("Checkpoint-service at " + baseUrl + " did not store the snapshots of "
                    + snapshots.keySet() + " for checkpoint " + checkpointId + ": " + e.getMessage()
                    + "; check that it runs and steadfast.host.checkpoint-url is right", e);
        }
    }

    @Override
    public Optional<byte[]> get(TaskId task, long checkpointId) {
        try {
            return Optional.ofNullable(http.get().uri(uri(task, checkpointId)).accept(MediaType.APPLICATION_OCTET_STREAM)
                    .retrieve().body(byte[].class));
        } catch (HttpClientErrorException.NotFound e) {
            return Optional.empty();
        } catch (RestClientException e) {
            throw new SnapshotStoreException("Checkpoint-service at " + baseUrl + " did not return the snapshot of "
                    + task + " for checkpoint " + checkpointId + ": " + e.getMessage()
                    + "; check that it runs and steadfast.host.checkpoint-url is right", e);
        }
    }

    /**
     * One {@code GET /api/v1/snapshots/{topology}/{checkpointId}/batch?task=..&task=..} for all of them, read from the
     * checkpoint-service's batch format; if it has no snapshot of one of them, one request each, to tell which.
     */
    @Override
    public Map<TaskId, byte[]> getAll(List<TaskId> tasks, long checkpointId) {
        if (tasks.size() < 2) {
            return SnapshotStore.super.getAll(tasks, checkpointId);
        }
        UriComponentsBuilder uri = UriComponentsBuilder.fromUri(baseUrl)
                .path("/api/v1/snapshots/{topology}/{checkpointId}/batch");
        for (int i = 0; i < tasks.size(); i++) {
            uri.queryParam("task", "{task" + i + "}");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("topology", tasks.get(0).topology().value());
        values.put("checkpointId", checkpointId);
        for (int i = 0; i < tasks.size(); i++) {
            values.put("task" + i, tasks.get(i).toString());
        }
        byte[] batch;
        try {
            batch = http.get().uri(uri.buildAndExpand(values).encode().toUri())
                    .accept(MediaType.APPLICATION_OCTET_STREAM).retrieve().body(byte[].class);
        } catch (HttpClientErrorException.NotFound e) {
            return SnapshotStore.super.getAll(tasks, checkpointId);
        } catch (RestClientException e) {
            throw new SnapshotStoreException("Checkpoint-service at " + baseUrl + " did not return the snapshots of "
                    + tasks + " for checkpoint " + checkpointId + ": " + e.getMessage()
                    + "; check that it runs and steadfast.host.checkpoint-url is right", e);
        }
        return SnapshotBatch.read(batch == null ? new byte[0] : batch, baseUrl);
    }

    /** A 409: the checkpoint is closed, or, if the problem's reason says so, the copy of a task was superseded. */
    private static CheckpointClosedException refused(HttpClientErrorException.Conflict e, String what,
                                                     long checkpointId, TopologyId topology) {
        Optional<ServiceProblem> superseded = ServiceProblem.of(e).filter(ServiceProblem::isSuperseded);
        if (superseded.isPresent()) {
            return new SupersededSnapshotException("A newer copy of " + superseded.get().get("tasks") + " took over, so "
                    + what + " for checkpoint " + checkpointId + " of " + topology + ": "
                    + superseded.get().get("detail"), e);
        }
        return new CheckpointClosedException("Checkpoint " + checkpointId + " of " + topology + " takes no more"
                + " snapshots of these copies (it is no longer pending, or the tasks were recovered since), so " + what
                + ": " + e.getResponseBodyAsString(), e);
    }

    private URI uri(TaskId task, long checkpointId) {
        return UriComponentsBuilder.fromUri(baseUrl).path("/api/v1/snapshots/{topology}/{checkpointId}")
                .queryParam("task", "{task}")
                .buildAndExpand(task.topology().value(), checkpointId, task.toString()).encode().toUri();
    }
}
