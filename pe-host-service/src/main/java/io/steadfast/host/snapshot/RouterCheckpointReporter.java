package io.steadfast.host.snapshot;

import io.steadfast.protocol.checkpoint.CheckpointAck;
import io.steadfast.protocol.checkpoint.CheckpointAckBatch;
import io.steadfast.protocol.checkpoint.CheckpointNack;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * {@link CheckpointReporter} over the router's REST API: {@code POST
 * /api/v1/topologies/{topology}/checkpoints/{checkpointId}/acks}, {@code .../acks/batch} and {@code .../nacks}.
 * Thread-safe.
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
        post(task.topology(), checkpointId, "acks", "the ack of " + task, new CheckpointAck(task, host,
                ack.incarnation(), ack.sizeBytes(), ack.syncMillis(), ack.asyncMillis()));
    }

    /** One {@code POST .../acks/batch} for all of them (one {@code .../acks} for one). */
    @Override
    public void acknowledgeAll(long checkpointId, Map<TaskId, SnapshotAck> acks) {
        if (acks.size() <= 1) {
            acks.forEach((task, ack) -> acknowledge(task, checkpointId, ack));
            return;
        }
        List<CheckpointAckBatch.TaskAck> body = new ArrayList<>();
        acks.forEach((task, ack) -> body.add(new CheckpointAckBatch.TaskAck(task, ack.incarnation(), ack.sizeBytes(),
                ack.syncMillis(), ack.asyncMillis())));
        post(acks.keySet().iterator().next().topology(), checkpointId, "acks/batch", "the acks of " + acks.keySet(),
                new CheckpointAckBatch(host, body));
    }

    @Override
    public void decline(TaskId task, int incarnation, long checkpointId, String reason) {
        post(task.topology(), checkpointId, "nacks", "the nack of " + task, new CheckpointNack(task, host,
                incarnation, reason));
    }

    private void post(TopologyId topology, long checkpointId, String path, String what, Object body) {
        try {
            router.post().uri("/api/v1/topologies/{topology}/checkpoints/{checkpointId}/" + path, topology.value(),
                            checkpointId)
                    .contentType(MediaType.APPLICATION_JSON).body(body).retrieve().toBodilessEntity();
        } catch (RestClientException e) {
            LOG.warn("Could not report {} for checkpoint {} to the router: {}; the checkpoint will time out", what,
                    checkpointId, e.getMessage());
        }
    }
}
