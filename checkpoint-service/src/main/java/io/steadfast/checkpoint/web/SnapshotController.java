package io.steadfast.checkpoint.web;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.snapshot.SnapshotBatchReader;
import io.steadfast.checkpoint.snapshot.SnapshotBatchWriter;
import io.steadfast.checkpoint.snapshot.SnapshotContent;
import io.steadfast.checkpoint.snapshot.SnapshotKey;
import io.steadfast.checkpoint.snapshot.SnapshotMeters;
import io.steadfast.checkpoint.snapshot.SnapshotNotFoundException;
import io.steadfast.checkpoint.snapshot.SnapshotStore;
import io.steadfast.checkpoint.snapshot.StoredSnapshot;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Task snapshots: streamed in and out as raw bytes. The task id goes in the path URL-encoded
 * ({@code word-count%2Fsink%230}) or in the query ({@code ?task=word-count/sink%230}). An upload names the incarnation
 * of the copy of the task that took the snapshot ({@code ?incarnation=2}, 0 when left out; in a batch, in each entry):
 * a checkpoint takes the snapshots of the incarnations it was triggered for only.
 */
@RestController
@Tag(name = CheckpointApiDocs.SNAPSHOTS)
@RequestMapping("/api/v1/snapshots")
class SnapshotController {

    private final SnapshotStore snapshots;
    private final CheckpointLifecycle lifecycle;
    private final SnapshotMeters meters;

    SnapshotController(SnapshotStore snapshots, CheckpointLifecycle lifecycle, SnapshotMeters meters) {
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
        this.meters = meters;
    }

    @PutMapping("/{topology}/{checkpointId}/{task}")
    ResponseEntity<StoredSnapshot> put(@PathVariable String topology, @PathVariable String checkpointId,
            @PathVariable String task, @RequestParam(required = false) @Nullable String incarnation,
            InputStream body) throws IOException {
        return store(key(topology, checkpointId, "task", task), incarnation, body);
    }

    @PutMapping(path = "/{topology}/{checkpointId}", params = "task")
    ResponseEntity<StoredSnapshot> putByQuery(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestParam String task, @RequestParam(required = false) @Nullable String incarnation,
            InputStream body) throws IOException {
        return store(key(topology, checkpointId, "task", task), incarnation, body);
    }

    @GetMapping("/{topology}/{checkpointId}/{task}")
    void get(@PathVariable String topology, @PathVariable String checkpointId, @PathVariable String task,
            HttpServletResponse response) throws IOException {
        send(key(topology, checkpointId, "task", task), response);
    }

    // the ?task= form of the GET above; left out of the OpenAPI spec, which holds one operation per path and method
    // (the list below is the one it shows)
    @Hidden
    @GetMapping(path = "/{topology}/{checkpointId}", params = "task")
    void getByQuery(@PathVariable String topology, @PathVariable String checkpointId, @RequestParam String task,
            HttpServletResponse response) throws IOException {
        send(key(topology, checkpointId, "task", task), response);
    }

    /**
     * Several snapshots of one checkpoint in one body, in the batch format of {@link SnapshotBatchReader}, in the
     * order asked: what a host that recovers several tasks fetches at once (one request instead of one per task).
     * 404 naming the first task asked that has no snapshot, before anything is sent.
     */
    @GetMapping("/{topology}/{checkpointId}/batch")
    void getBatch(@PathVariable String topology, @PathVariable String checkpointId, @RequestParam List<String> task,
                  HttpServletResponse response) throws IOException {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = RequestIds.checkpointId("checkpointId", checkpointId);
        Map<TaskId, SnapshotContent> contents = new LinkedHashMap<>();
        for (int i = 0; i < task.size(); i++) {
            SnapshotKey key = SnapshotKey.of(topologyId, id, RequestIds.task("task[" + i + "]", task.get(i), topologyId));
            contents.put(key.task(), snapshots.open(key).orElseThrow(() -> new SnapshotNotFoundException(key)));
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
        SnapshotBatchWriter writer = new SnapshotBatchWriter(response.getOutputStream());
        for (Map.Entry<TaskId, SnapshotContent> entry : contents.entrySet()) {
            writer.write(entry.getKey(), entry.getValue());
        }
        writer.flush();
    }

    /** The snapshots stored for one checkpoint, by task. */
    @GetMapping(path = "/{topology}/{checkpointId}", params = "!task")
    @Operation(operationId = "listSnapshots")
    List<StoredSnapshot> list(@PathVariable String topology, @PathVariable String checkpointId) {
        return snapshots.list(RequestIds.topology(topology), RequestIds.checkpointId("checkpointId", checkpointId));
    }

    /**
     * Many snapshots of one checkpoint in one body, in the format of {@link SnapshotBatchReader}, stored together
     * (see {@link SnapshotBatchUpload}).
     */
    @PostMapping("/{topology}/{checkpointId}/batch")
    @ResponseStatus(HttpStatus.CREATED)
    List<StoredSnapshot> batch(@PathVariable String topology, @PathVariable String checkpointId, InputStream body) {
        return new SnapshotBatchUpload(RequestIds.topology(topology),
                RequestIds.checkpointId("checkpointId", checkpointId), snapshots, lifecycle, meters).storeAll(body);
    }

    private ResponseEntity<StoredSnapshot> store(SnapshotKey key, @Nullable String incarnation, InputStream body)
            throws IOException {
        lifecycle.requireSnapshotsWritable(key.topology(), key.checkpointId(), key.task(),
                RequestIds.incarnation("incarnation", incarnation));
        StoredSnapshot snapshot = snapshots.put(key, body);
        meters.stored(snapshot);
        URI location = URI.create("/api/v1/snapshots/" + key.topology() + "/" + key.checkpointId() + "/"
                + URLEncoder.encode(key.task().toString(), StandardCharsets.UTF_8));
        return ResponseEntity.created(location).body(snapshot);
    }

    private void send(SnapshotKey key, HttpServletResponse response) throws IOException {
        SnapshotContent content = snapshots.open(key).orElseThrow(() -> new SnapshotNotFoundException(key));
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_OCTET_STREAM_VALUE);
        response.setContentLengthLong(content.snapshot().sizeBytes());
        content.transferTo(response.getOutputStream());
    }

    private static SnapshotKey key(String topology, String checkpointId, String taskField, String task) {
        TopologyId topologyId = RequestIds.topology(topology);
        return SnapshotKey.of(topologyId, RequestIds.checkpointId("checkpointId", checkpointId),
                RequestIds.task(taskField, task, topologyId));
    }
}
