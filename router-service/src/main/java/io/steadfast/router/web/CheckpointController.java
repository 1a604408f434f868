package io.steadfast.router.web;

import io.steadfast.protocol.checkpoint.CheckpointAck;
import io.steadfast.protocol.checkpoint.CheckpointAckBatch;
import io.steadfast.protocol.checkpoint.CheckpointNack;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CheckpointRecordsException;
import io.steadfast.router.checkpoint.CheckpointStats;
import io.steadfast.router.checkpoint.CheckpointingStatus;
import io.steadfast.router.checkpoint.CompletedCheckpoint;
import io.steadfast.router.checkpoint.TaskAck;
import io.steadfast.router.checkpoint.TriggerResult;
import io.steadfast.router.topology.TopologyException;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import jakarta.validation.Valid;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Lists and triggers a topology's checkpoints, and takes the hosts' acks and nacks. */
@RestController
@RequestMapping("/api/v1/topologies/{id}/checkpoints")
class CheckpointController {

    private final TopologyRepository topologies;
    private final CheckpointCoordinators coordinators;
    private final CheckpointRecords records;

    CheckpointController(TopologyRepository topologies, CheckpointCoordinators coordinators,
                         CheckpointRecords records) {
        this.topologies = topologies;
        this.coordinators = coordinators;
        this.records = records;
    }

    /**
     * The checkpoints the store keeps, with how the topology is checkpointed now.
     *
     * @throws CheckpointRecordsException if the store cannot be read (503 when it is unreachable)
     */
    @GetMapping
    Checkpoints list(@PathVariable String id) {
        TopologyId topology = deployed(id);
        Long latest = coordinators.lastCompleted(topology).map(CompletedCheckpoint::checkpointId).orElse(null);
        CheckpointingView checkpointing = coordinators.status(topology).map(CheckpointingView::of).orElse(null);
        return new Checkpoints(topology.value(), latest, checkpointing, records.list(topology));
    }

    @PostMapping
    ResponseEntity<Triggered> trigger(@PathVariable String id) {
        TopologyId topology = deployed(id);
        TriggerResult result = coordinators.triggerNow(topology);
        if (result instanceof TriggerResult.Refused refused) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "No checkpoint of topology '" + id
                    + "' was triggered. " + refused.reason());
        }
        return ResponseEntity.accepted().body(new Triggered(((TriggerResult.Triggered) result).checkpointId()));
    }

    @PostMapping("/{checkpointId}/acks")
    ResponseEntity<Void> ack(@PathVariable String id, @PathVariable long checkpointId, @Valid @RequestBody CheckpointAck ack) {
        TopologyId topology = deployed(id);
        coordinators.acknowledge(topology, checkpointId, new TaskAck(ack.task(), ack.host(),
                incarnationOf(ack.incarnation()), ack.sizeBytes(), ack.syncMillis(), ack.asyncMillis()));
        return ResponseEntity.accepted().build();
    }

    /** The acks of several tasks of one host, sent at once (what a host's tasks snapshot at one barrier). */
    @PostMapping("/{checkpointId}/acks/batch")
    ResponseEntity<Void> ackBatch(@PathVariable String id, @PathVariable long checkpointId,
                                  @Valid @RequestBody CheckpointAckBatch batch) {
        TopologyId topology = deployed(id);
        HostId host = batch.host();
        batch.acks().forEach(ack -> coordinators.acknowledge(topology, checkpointId, new TaskAck(
                ack.task(), host, incarnationOf(ack.incarnation()), ack.sizeBytes(), ack.syncMillis(),
                ack.asyncMillis())));
        return ResponseEntity.accepted().build();
    }

    @PostMapping("/{checkpointId}/nacks")
    ResponseEntity<Void> nack(@PathVariable String id, @PathVariable long checkpointId, @Valid @RequestBody CheckpointNack nack) {
        TopologyId topology = deployed(id);
        coordinators.decline(topology, checkpointId, nack.task(), nack.host(),
                incarnationOf(nack.incarnation()), nack.reason());
        return ResponseEntity.accepted().build();
    }

    /** A host that predates incarnations does not send one: its tasks run as their first incarnation. */
    private static int incarnationOf(@Nullable Integer incarnation) {
        return incarnation == null ? 0 : incarnation;
    }

    private TopologyId deployed(String id) {
        if (!TopologyId.isValid(id) || topologies.find(TopologyId.of(id)).isEmpty()) {
            throw new TopologyException(TopologyException.Reason.NOT_FOUND, "Topology '" + id + "' is not deployed;"
                    + " see GET /api/v1/topologies");
        }
        return TopologyId.of(id);
    }

    /**
     * A topology's checkpoints.
     *
     * @param topology the topology id
     * @param latestCompleted the latest checkpoint completed by this router, or null
     * @param checkpointing how the topology is checkpointed now
     * @param checkpoints every checkpoint the store keeps, newest first
     */
    record Checkpoints(String topology, Long latestCompleted, CheckpointingView checkpointing,
                       List<CheckpointStats> checkpoints) {
    }

    /**
     * How a topology is checkpointed now (see {@link CheckpointingStatus}).
     *
     * @param state ACTIVE, SKIPPING, PAUSED or NOT_STARTED
     * @param reason why it is not ACTIVE, or null
     * @param intervalMs milliseconds between checkpoints, as in force
     * @param timeoutMs milliseconds a checkpoint may take, as in force
     * @param maxConcurrent the most checkpoints pending at once, as in force
     * @param skipped due checkpoints skipped in this deployment
     * @param unrecordedFailures failed checkpoints the router keeps until the checkpoint store answers again
     */
    record CheckpointingView(String state, String reason, long intervalMs, long timeoutMs, int maxConcurrent,
                             long skipped, int unrecordedFailures) {

        static CheckpointingView of(CheckpointingStatus status) {
            return new CheckpointingView(status.state().name(), status.reason(),
                    status.settings().interval().toMillis(), status.settings().timeout().toMillis(),
                    status.settings().maxConcurrent(), status.skipped(), status.unrecordedFailures());
        }
    }

    /** Answer to a trigger. */
    record Triggered(long checkpointId) {
    }
}
