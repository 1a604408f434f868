package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.task.TaskStatus;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A task's report is one flat JSON object, as hosts send it in heartbeats and the router serves it. */
class TaskReportTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void writesThroughputAndInputHealthAsMembersOfTheReportItself() {
        TaskReport report = new TaskReport("t/count#1", "keyed-count", TaskStatus.RUNNING,
                new TaskReport.Throughput(120, 80, 60.0, 40.0, 2.5, 0.75, 12.0, 0.4),
                new TaskReport.InputHealth(3, 1, 250), null, null, 2);

        JsonNode written = json.valueToTree(report);

        assertThat(written.get("recordsIn").asLong()).isEqualTo(120);
        assertThat(written.get("recordsOut").asLong()).isEqualTo(80);
        assertThat(written.get("recordsInPerSecond").asDouble()).isEqualTo(60.0);
        assertThat(written.get("recordsOutPerSecond").asDouble()).isEqualTo(40.0);
        assertThat(written.get("latencyMillis").asDouble()).isEqualTo(2.5);
        assertThat(written.get("busyFraction").asDouble()).isEqualTo(0.75);
        assertThat(written.get("framesInPerSecond").asDouble()).isEqualTo(12.0);
        assertThat(written.get("outputWaitMillis").asDouble()).isEqualTo(0.4);
        assertThat(written.get("queuedFrames").asInt()).isEqualTo(3);
        assertThat(written.get("malformedFrames").asLong()).isEqualTo(1);
        assertThat(written.get("backpressuredMillis").asLong()).isEqualTo(250);
        assertThat(written.has("throughput")).isFalse();
        assertThat(written.has("input")).isFalse();
        assertThat(json.treeToValue(written, TaskReport.class)).isEqualTo(report);
    }

    @Test
    void readsAReportOfAFirstIncarnationThatLeavesTheIncarnationOut() {
        String body = """
                {"task":"t/sink#0","type":"latest-value-sink","status":"RUNNING","recordsIn":7,"recordsOut":0,
                 "recordsInPerSecond":1.5,"recordsOutPerSecond":0.0,"queuedFrames":0,"malformedFrames":0,
                 "backpressuredMillis":0,"failure":null,"catchUp":null}""";

        TaskReport read = json.readValue(body, TaskReport.class);

        assertThat(read.incarnation()).isZero();
        assertThat(read.recordsIn()).isEqualTo(7);
        assertThat(read.recordsInPerSecond()).isEqualTo(1.5);
        assertThat(read.input()).isEqualTo(TaskReport.InputHealth.IDLE);
        assertThat(read.latencyMillis()).as("a host that does not measure latency reports none").isNull();
        assertThat(read.busyFraction()).isZero();
        assertThat(read.framesInPerSecond()).as("nor frames").isNull();
        assertThat(read.outputWaitMillis()).isNull();
    }
}
