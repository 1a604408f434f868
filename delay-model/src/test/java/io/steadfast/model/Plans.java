package io.steadfast.model;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Real plans for the tests, expanded from topology JSON as the router expands a submitted one. */
final class Plans {

    private Plans() {
    }

    /** The plan of a topology written in JSON with single quotes for readability. */
    static ExecutionPlan fromJson(String singleQuoted) {
        return PlanExpander.expand(new TopologySpecReader().read(singleQuoted.replace('\'', '"')));
    }

    /** The plan of a topology in the repository's {@code examples/} directory. */
    static ExecutionPlan example(String fileName) {
        try {
            Path file = Path.of("..", "examples", fileName);
            return PlanExpander.expand(new TopologySpecReader().read(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** source → map → sink, one subtask each. */
    static ExecutionPlan chain() {
        return fromJson("""
                {'id': 't', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 1},
                  {'id': 'map', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'sink', 'type': 'latest-value-sink', 'parallelism': 1, 'inputs': [{'from': 'map'}]}]}
                """);
    }

    /** source → a, source → b, a and b → join, one subtask each. */
    static ExecutionPlan diamond() {
        return fromJson("""
                {'id': 't', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 1},
                  {'id': 'a', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'b', 'type': 'filter', 'parallelism': 1, 'inputs': [{'from': 'source'}]},
                  {'id': 'join', 'type': 'map', 'parallelism': 1, 'inputs': [{'from': 'a'}, {'from': 'b'}]}]}
                """);
    }

    /** A word count of parallelism source : count : sink = 1 : 2 : 1, read by key. */
    static ExecutionPlan wordCount121() {
        return fromJson("""
                {'id': 'wc', 'operators': [
                  {'id': 'source', 'type': 'generator', 'parallelism': 1},
                  {'id': 'count', 'type': 'keyed-count', 'parallelism': 2, 'inputs': [{'from': 'source'}]},
                  {'id': 'sink', 'type': 'latest-value-sink', 'parallelism': 1, 'inputs': [{'from': 'count'}]}]}
                """);
    }

    /** {@code "t/map#0"} as a task id. */
    static TaskId task(String text) {
        return TaskId.parse(text);
    }

    /** A placement from pairs: task text, host name, task text, host name, ... */
    static Map<TaskId, HostId> placement(String... taskThenHost) {
        Map<TaskId, HostId> hosts = new LinkedHashMap<>();
        for (int i = 0; i < taskThenHost.length; i += 2) {
            hosts.put(task(taskThenHost[i]), new HostId(taskThenHost[i + 1]));
        }
        return hosts;
    }
}
