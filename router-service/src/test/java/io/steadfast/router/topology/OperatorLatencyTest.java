package io.steadfast.router.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.task.TaskStatus;
import org.junit.jupiter.api.Test;

class OperatorLatencyTest {

    @Test
    void weighsEachTasksLatencyByTheRecordsItTookIn() {
        OperatorLatency latency = new OperatorLatency();
        latency.add(task(3_000, 2.0));
        latency.add(task(1_000, 10.0));

        assertThat(latency.mean()).isCloseTo(4.0, within(1e-9)); // (3,000 x 2 + 1,000 x 10) / 4,000
    }

    @Test
    void leavesOutTasksThatTookNothingInAndHasNoneWithoutThem() {
        OperatorLatency latency = new OperatorLatency();
        latency.add(task(0, null));
        assertThat(latency.mean()).isNull();

        latency.add(task(500, 6.0));
        latency.add(task(0, 900.0)); // a stale figure of a task idle now
        assertThat(latency.mean()).isEqualTo(6.0);
    }

    private static TaskReport task(double inPerSecond, Double latencyMillis) {
        return new TaskReport("t/op#0", "map", TaskStatus.RUNNING,
                new TaskReport.Throughput(0, 0, inPerSecond, 0, latencyMillis, 0.5), TaskReport.InputHealth.IDLE,
                null, null);
    }
}
