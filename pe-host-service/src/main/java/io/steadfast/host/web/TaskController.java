package io.steadfast.host.web;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.StateQueryException;
import io.steadfast.protocol.host.KeyValue;
import io.steadfast.protocol.host.StateValues;
import io.steadfast.protocol.host.TaskStateValue;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.TaskId;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Min;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Reports of this host's tasks and queries of their keyed state. State is reachable two ways with the same
 * answers: {@code /api/v1/tasks/{taskId}/state/{state}} (task id URL-encoded) and
 * {@code /api/v1/state?task=..&state=..}.
 */
@RestController
@Tag(name = HostApiDocs.TASKS)
@Validated
class TaskController {

    private final ProcessingNode node;

    TaskController(ProcessingNode node) {
        this.node = node;
    }

    @GetMapping("/api/v1/tasks")
    List<TaskReport> tasks() {
        return node.taskReports();
    }

    @GetMapping("/api/v1/tasks/{taskId}/state/{stateName}")
    ResponseEntity<?> stateByPath(@PathVariable String taskId, @PathVariable String stateName,
                                  @RequestParam(required = false) String key,
                                  @RequestParam(defaultValue = "10000") @Min(1) int limit) {
        return state(taskId, stateName, key, limit);
    }

    @GetMapping("/api/v1/state")
    ResponseEntity<?> stateByParam(@RequestParam String task, @RequestParam(defaultValue = "latest") String state,
                                   @RequestParam(required = false) String key,
                                   @RequestParam(defaultValue = "10000") @Min(1) int limit) {
        return state(task, state, key, limit);
    }

    /** A task state: state of the whole task rather than of a key, such as a vote task's records of its versions. */
    @GetMapping("/api/v1/task-state")
    TaskStateValue taskState(@RequestParam String task, @RequestParam String state) {
        TaskId id = parse(task);
        return new TaskStateValue(id, state, node.queryTaskState(id, state).orElse(null));
    }

    private ResponseEntity<?> state(String taskText, String stateName, String key, int limit) {
        TaskId task = parse(taskText);
        if (key != null) {
            return node.queryState(task, stateName, key)
                    .<ResponseEntity<?>>map(value -> ResponseEntity.ok(new KeyValue(key, value)))
                    .orElseThrow(() -> new StateQueryException(StateQueryException.Reason.KEY_NOT_FOUND,
                            "Key '" + key + "' has no value in state '" + stateName + "' of task " + task, null));
        }
        Map<String, Object> values = node.queryAll(task, stateName, limit);
        return ResponseEntity.ok(new StateValues(task, stateName, values));
    }

    private static TaskId parse(String text) {
        try {
            return TaskId.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; URL-encode '#' as %23, e.g. word-count%2Fsink%230");
        }
    }

}
