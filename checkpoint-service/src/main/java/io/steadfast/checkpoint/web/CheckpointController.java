package io.steadfast.checkpoint.web;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointFailureReason;
import io.steadfast.checkpoint.checkpoint.CheckpointLifecycle;
import io.steadfast.checkpoint.checkpoint.CheckpointRejectedException;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
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
@RequestMapping("/api/v1/checkpoints")
class CheckpointController {

    private final CheckpointLifecycle lifecycle;

    CheckpointController(CheckpointLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @PostMapping("/{topology}")
    ResponseEntity<CheckpointView> create(@PathVariable String topology,
            @RequestBody CheckpointRequests.Create request) {
        TopologyId topologyId = RequestIds.topology(topology);
        if (request.checkpointId() == null) {
            throw new InvalidRequestException("checkpointId", null, "checkpointId is missing: give the number of"
                    + " the checkpoint, e.g. {\"checkpointId\": 7, \"tasks\": [\"" + topology + "/source#0\"]}");
        }
        CheckpointId id = RequestIds.checkpointId("checkpointId", request.checkpointId().toString());
        if (request.tasks() == null || request.tasks().isEmpty()) {
            throw new InvalidRequestException("tasks", null, "tasks is missing or empty: list every task that must"
                    + " acknowledge checkpoint " + id + ", e.g. [\"" + topology + "/source#0\"]");
        }
        List<TaskId> tasks = new ArrayList<>();
        for (int i = 0; i < request.tasks().size(); i++) {
            tasks.add(RequestIds.task("tasks[" + i + "]", request.tasks().get(i), topologyId));
        }
        Map<TaskId, Integer> incarnations = new LinkedHashMap<>();
        if (request.incarnations() != null) {
            request.incarnations().forEach((task, incarnation) -> incarnations.put(
                    RequestIds.task("incarnations", task, topologyId),
                    RequestIds.incarnation("incarnations['" + task + "']", Objects.toString(incarnation, null))));
        }
        CheckpointRecord record = lifecycle.create(topologyId, id, tasks, incarnations, request.triggeredAt());
        return ResponseEntity.created(URI.create("/api/v1/checkpoints/" + topology + "/" + id))
                .body(CheckpointView.of(record));
    }

    @PutMapping("/{topology}/{checkpointId}/acks")
    CheckpointView ack(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody CheckpointRequests.Ack request) {
        TopologyId topologyId = RequestIds.topology(topology);
        TaskId task = RequestIds.task("task", request.task(), topologyId);
        long syncMillis = nonNegative("syncMillis", request.syncMillis());
        long asyncMillis = nonNegative("asyncMillis", request.asyncMillis());
        if (request.sizeBytes() != null && request.sizeBytes() < 0) {
            throw new InvalidRequestException("sizeBytes", request.sizeBytes().toString(),
                    "sizeBytes must be >= 0 (or left out), was " + request.sizeBytes());
        }
        return CheckpointView.of(lifecycle.ack(topologyId, RequestIds.checkpointId("checkpointId", checkpointId),
                task, request.sizeBytes(), syncMillis, asyncMillis));
    }

    /**
     * Completes a checkpoint whose tasks all acknowledged; with a body listing {@code acks}, records them first, in
     * the same write (one call instead of one per task).
     */
    @PostMapping("/{topology}/{checkpointId}/complete")
    CheckpointView complete(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody(required = false) CheckpointRequests.Complete request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = RequestIds.checkpointId("checkpointId", checkpointId);
        if (request == null || request.acks() == null) {
            return CheckpointView.of(lifecycle.complete(topologyId, id));
        }
        List<CheckpointLifecycle.AckRequest> acks = new ArrayList<>();
        for (int i = 0; i < request.acks().size(); i++) {
            CheckpointRequests.Ack ack = request.acks().get(i);
            String field = "acks[" + i + "]";
            if (ack == null) {
                throw new InvalidRequestException(field, "null", field + " is null; give {task, sizeBytes, syncMillis,"
                        + " asyncMillis} for every task");
            }
            if (ack.sizeBytes() != null && ack.sizeBytes() < 0) {
                throw new InvalidRequestException(field + ".sizeBytes", ack.sizeBytes().toString(), field
                        + ".sizeBytes must be >= 0 (or left out), was " + ack.sizeBytes());
            }
            acks.add(new CheckpointLifecycle.AckRequest(RequestIds.task(field + ".task", ack.task(), topologyId),
                    ack.sizeBytes(), nonNegative(field + ".syncMillis", ack.syncMillis()),
                    nonNegative(field + ".asyncMillis", ack.asyncMillis())));
        }
        return CheckpointView.of(lifecycle.completeWithAcks(topologyId, id, acks));
    }

    @PostMapping("/{topology}/{checkpointId}/fail")
    CheckpointView fail(@PathVariable String topology, @PathVariable String checkpointId,
            @RequestBody CheckpointRequests.Fail request) {
        TopologyId topologyId = RequestIds.topology(topology);
        CheckpointId id = RequestIds.checkpointId("checkpointId", checkpointId);
        return CheckpointView.of(lifecycle.fail(topologyId, id,
                new CheckpointFailure(reason(request.reason()), request.message())));
    }

    @GetMapping("/{topology}")
    CheckpointList list(@PathVariable String topology) {
        TopologyId topologyId = RequestIds.topology(topology);
        return CheckpointList.of(topologyId, lifecycle.list(topologyId));
    }

    @GetMapping("/{topology}/latest-completed")
    CheckpointView latestCompleted(@PathVariable String topology) {
        TopologyId topologyId = RequestIds.topology(topology);
        return lifecycle.latestCompleted(topologyId).map(CheckpointView::of)
                .orElseThrow(() -> new CheckpointRejectedException(CheckpointRejectedException.Reason.NOT_FOUND,
                        topologyId, null, List.of(), "Topology '" + topology + "' has no completed checkpoint"
                        + " (none yet, or the topology was deleted); restore from its initial state"));
    }

    @GetMapping("/{topology}/{checkpointId}")
    CheckpointView get(@PathVariable String topology, @PathVariable String checkpointId) {
        return CheckpointView.of(lifecycle.get(RequestIds.topology(topology),
                RequestIds.checkpointId("checkpointId", checkpointId)));
    }

    /** Deletes every checkpoint record and snapshot of the topology (when it is cancelled). */
    @DeleteMapping("/{topology}")
    CheckpointLifecycle.DeletedTopology delete(@PathVariable String topology) {
        return lifecycle.deleteTopology(RequestIds.topology(topology));
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
