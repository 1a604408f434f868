package io.steadfast.host.snapshot;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * {@link CheckpointReporter} over the router's REST API: {@code POST
 * /api/v1/topologies/{topology}/checkpoints/{checkpointId}/acks} and {@code .../nacks}. Thread-safe.
 */
public final class RouterCheckpointReporter implements CheckpointReporter {

    private static final Logger LOG = LoggerFactory.getLogger(RouterCheckpointReporter.class);

    private final RestClient router;
    private final HostId host;

    /** @param router a client whose base URL is the router's */
    public RouterCheckpointReporter(RestClient router, HostId host) {
        this.router = router;
        this.host = host;
    }

    @Override
    public void acknowledge(TaskId task, long checkpointId, SnapshotAck ack) {
        post(task, checkpointId, "acks", new Ack(task.toString(), host.value(), ack.sizeBytes(), ack.syncMillis(),
                ack.asyncMillis()));
    }

    @Override
    public void decline(TaskId task, long checkpointId, String reason) {
        post(task, checkpointId, "nacks", new Nack(task.toString(), host.value(), reason));
    }

    private void post(TaskId task, long checkpointId, String kind, Object body) {
        try {
            router.post().uri("/api/v1/topologies/{topology}/checkpoints/{checkpointId}/" + kind,
                            task.topology().value(), checkpointId)
                    .contentType(MediaType.APPLICATION_JSON).body(body).retrieve().toBodilessEntity();
        } catch (RestClientException e) {
            LOG.warn("Could not report the {} of {} for checkpoint {} to the router: {}; the checkpoint will time out",
                    kind, task, checkpointId, e.getMessage());
        }
    }

    /** Body of an ack. */
    record Ack(String task, String host, long sizeBytes, long syncMillis, long asyncMillis) {
    }

    /** Body of a nack. */
    record Nack(String task, String host, String reason) {
    }
}
