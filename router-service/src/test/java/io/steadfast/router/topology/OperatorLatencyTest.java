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

    @Test
    void weighsEachTasksOutputWaitByTheRecordsItSentAndLeavesOutTasksThatSentNone() {
        OperatorLatency latency = new OperatorLatency();
        latency.add(sending(1_000, 4.0));
        latency.add(sending(3_000, 0.8));
        latency.add(sending(0, 20.0)); // a stale figure of a task that sends nothing now
        latency.add(task(2_000, 1.0)); // a host that does not measure the wait

        assertThat(latency.outputWait()).isCloseTo(1.6, within(1e-9)); // (1,000 x 4 + 3,000 x 0.8) / 4,000
        assertThat(latency.mean()).isEqualTo(1.0);
    }

    @Test
    void hasNoOutputWaitForASink() {
        OperatorLatency latency = new OperatorLatency();
        latency.add(task(2_000, 0.3));

        assertThat(latency.outputWait()).isNull();
    }

    private static TaskReport task(double inPerSecond, Double latencyMillis) {
        return new TaskReport("t/op#0", "map", TaskStatus.RUNNING,
                new TaskReport.Throughput(0, 0, inPerSecond, 0, latencyMillis, 0.5), TaskReport.InputHealth.IDLE,
                null, null);
    }

    private static TaskReport sending(double outPerSecond, Double outputWaitMillis) {
        return new TaskReport("t/op#0", "map", TaskStatus.RUNNING,
                new TaskReport.Throughput(0, 0, 0, outPerSecond, null, 0.5, null, outputWaitMillis),
                TaskReport.InputHealth.IDLE, null, null);
    }
}
