package io.steadfast.checkpoint.web;

import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointFailureReason;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.checkpoint.CheckpointRejectedException;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.protocol.store.CheckpointCompletion;
import io.steadfast.protocol.store.CheckpointCreation;
import io.steadfast.protocol.store.CheckpointFailureReport;
import io.steadfast.protocol.store.CheckpointRecordList;
import io.steadfast.protocol.store.CheckpointRecordView;
import io.steadfast.protocol.store.RecordedAck;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Checkpoint records as the router's coordinator drives them. */
@RestController
@Tag(name = CheckpointApiDocs.CHECKPOINTS)
@RequestMapping("/api/v1/checkpoints")
class CheckpointController {

    private final CheckpointLifecycle lifecycle;

    CheckpointController(CheckpointLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @PostMapping("/{topology}")
    ResponseEntity<CheckpointRecordView> create(@PathVariable String topology,
            @RequestBody CheckpointCreation request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = request.checkpointId();
        if (id == null) {
            throw new InvalidRequestException("checkpointId", null, "checkpointId is missing: give the number of"
                    + " the checkpoint, e.g. {\"checkpointId\": 7, \"tasks\": [\"" + topology + "/source#0\"]}");
        }
        if (request.tasks() == null || request.tasks().isEmpty()) {
            throw new InvalidRequestException("tasks", null, "tasks is missing or empty: list every task that must"
                    + " acknowledge checkpoint " + id + ", e.g. [\"" + topology + "/source#0\"]");
        }
        List<TaskId> tasks = new ArrayList<>();
        for (int i = 0; i < request.tasks().size(); i++) {
            tasks.add(RequestIds.taskOf("tasks[" + i + "]", request.tasks().get(i), topologyId));
        }
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        if (request.incarnations() != null) {
            request.incarnations().forEach((task, incarnation) -> incarnations.put(
                    RequestIds.taskOf("incarnations", task, topologyId),
                    RequestIds.incarnation("incarnations['" + task + "']", Objects.toString(incarnation, null))));
        }
        CheckpointRecord record = lifecycle.create(topologyId, id, tasks, incarnations, request.triggeredAt());
        return ResponseEntity.created(URI.create("/api/v1/checkpoints/" + topology + "/" + id))
                .body(CheckpointViews.of(record));
    }

    @PutMapping("/{topology}/{checkpointId}/acks")
    CheckpointRecordView ack(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody RecordedAck request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointLifecycle.AckRequest ack = ackRequest("", request, topologyId);
        return CheckpointViews.of(lifecycle.ack(topologyId, RequestIds.checkpointId("checkpointId", checkpointId),
                ack.task(), ack.sizeBytes(), ack.syncMillis(), ack.asyncMillis()));
    }

    /**
     * Completes a checkpoint whose tasks all acknowledged; with a body listing {@code acks}, records them first, in
     * the same write (one call instead of one per task).
     */
    @PostMapping("/{topology}/{checkpointId}/complete")
    CheckpointRecordView complete(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody(required = false) CheckpointCompletion request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = RequestIds.checkpointId("checkpointId", checkpointId);
        if (request == null || request.acks() == null) {
            return CheckpointViews.of(lifecycle.complete(topologyId, id));
        }
        return CheckpointViews.of(lifecycle.completeWithAcks(topologyId, id, ackRequests(request.acks(), topologyId)));
    }

    /** Fails a pending checkpoint; with {@code acks} in the body, records them with the failure. */
    @PostMapping("/{topology}/{checkpointId}/fail")
    CheckpointRecordView fail(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody CheckpointFailureReport request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = RequestIds.checkpointId("checkpointId", checkpointId);
        List<CheckpointLifecycle.AckRequest> acks = request.acks() == null ? List.of()
                : ackRequests(request.acks(), topologyId);
        return CheckpointViews.of(lifecycle.fail(topologyId, id,
                new CheckpointFailure(reason(request.reason()), request.message()), acks));
    }

    /** The acks of a completion or a failure, each checked, a null one named by its index. */
    private static List<CheckpointLifecycle.AckRequest> ackRequests(List<RecordedAck> given, TopologyId topology) {
        List<CheckpointLifecycle.AckRequest> acks = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            RecordedAck ack = given.get(i);
            String field = "acks[" + i + "]";
            if (ack == null) {
                throw new InvalidRequestException(field, "null", field + " is null; give {task, sizeBytes, syncMillis,"
                        + " asyncMillis} for every task");
            }
            acks.add(ackRequest(field + ".", ack, topology));
        }
        return acks;
    }

    @GetMapping("/{topology}")
    @Operation(operationId = "listCheckpoints")
    CheckpointRecordList list(@PathVariable String topology) {
        TopologyId topologyId = RequestIds.topology(topology);
        return CheckpointViews.listOf(topologyId, lifecycle.list(topologyId));
    }

    @GetMapping("/{topology}/latest-completed")
    CheckpointRecordView latestCompleted(@PathVariable String topology) {
        TopologyId topologyId = RequestIds.topology(topology);
        return lifecycle.latestCompleted(topologyId).map(CheckpointViews::of)
                .orElseThrow(() -> new CheckpointRejectedException(CheckpointRejectedException.Reason.NOT_FOUND,
                        topologyId, null, List.of(), "Topology '" + topology + "' has no completed checkpoint"
                        + " (none yet, or the topology was deleted); restore from its initial state"));
    }

    @GetMapping("/{topology}/{checkpointId}")
    @Operation(operationId = "getCheckpoint")
    CheckpointRecordView get(@PathVariable String topology, @PathVariable String checkpointId) {
        return CheckpointViews.of(lifecycle.get(RequestIds.topology(topology),
                RequestIds.checkpointId("checkpointId", checkpointId)));
    }

    /** Deletes every checkpoint record and snapshot of the topology (when it is cancelled). */
    @DeleteMapping("/{topology}")
    @Operation(operationId = "deleteCheckpoints")
    CheckpointLifecycle.DeletedTopology delete(@PathVariable String topology) {
        return lifecycle.deleteTopology(RequestIds.topology(topology));
    }

    /**
     * The ack of {@code request} checked, its fields named with {@code prefix}: its task of the topology, its
     * times and size not negative.
     */
    private static CheckpointLifecycle.AckRequest ackRequest(String prefix, RecordedAck request,
            TopologyId topology) {
        TaskId task = RequestIds.taskOf(prefix + "task", request.task(), topology);
        if (request.sizeBytes() != null && request.sizeBytes() < 0) {
            throw new InvalidRequestException(prefix + "sizeBytes", request.sizeBytes().toString(), prefix
                    + "sizeBytes must be >= 0 (or left out), was " + request.sizeBytes());
        }
        return new CheckpointLifecycle.AckRequest(task, request.sizeBytes(),
                nonNegative(prefix + "syncMillis", request.syncMillis()),
                nonNegative(prefix + "asyncMillis", request.asyncMillis()));
    }

    private static long nonNegative(String field, Long value) {
        if (value == null) {
            return 0;
        }
        if (value < 0) {
            throw new InvalidRequestException(field, value.toString(), field + " must be >= 0, was " + value);
        }
        return value;
    }

    private static CheckpointFailureReason reason(String reason) {
        try {
            return CheckpointFailureReason.valueOf(reason == null ? "" : reason.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("reason", reason, "reason '" + reason + "' is not one of "
                    + Arrays.toString(CheckpointFailureReason.values()));
        }
    }
}
