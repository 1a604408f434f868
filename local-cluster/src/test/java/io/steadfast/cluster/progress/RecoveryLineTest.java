package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.LocalRecoveryView;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecoveryLineTest {

    @Test
    void describesARecoveredFailureWithItsTimes() {
        RecoveryView recovery = new RecoveryView(1, new TopologyId("word-count"),
                List.of(TaskId.parse("word-count/count#1"), TaskId.parse("word-count/sink#0")),
                detection("host-2", 812, "HEARTBEAT_TIMEOUT"),
                new RecoveryView.Restoration(1, CheckpointId.of(7), RecoveryMode.GLOBAL, null),
                new RecoveryView.Timings(null, null, 640L, 2310L),
                new RecoveryView.Outcome("RECOVERED", null, "ok"), null);

        assertThat(RecoveryLine.format(recovery)).isEqualTo("GLOBAL recovery 1 of word-count RECOVERED: host-2 failed"
                + " (2 tasks: word-count/count#1, word-count/sink#0); detected after 812 ms, restored from checkpoint 7"
                + " in 640 ms, caught up after 2,310 ms");
    }

    @Test
    void describesALocalRecoveryWithWhatWasReplayedAndThatTheOtherTasksKeptRunning() {
        RecoveryView recovery = new RecoveryView(4, new TopologyId("t"), List.of(TaskId.parse("t/count#1")),
                detection("host-2", 310, "DATA_PLANE_DISCONNECT"),
                new RecoveryView.Restoration(0, CheckpointId.of(3), RecoveryMode.LOCAL, false),
                new RecoveryView.Timings(null, null, 90L, 240L),
                new RecoveryView.Outcome("RECOVERED", null, "ok"),
                new LocalRecoveryView(null, Map.of(TaskId.parse("t/count#1"), new HostId("host-4")), 1,
                        new LocalRecoveryView.TargetHosts(20, 10, 5, 300), 12_345L, 99_000L, null));

        assertThat(RecoveryLine.format(recovery)).isEqualTo("LOCAL recovery 4 of t RECOVERED: host-2 failed (1 task:"
                + " t/count#1); detected after 310 ms, restored from checkpoint 3 in 90 ms, caught up after 240 ms,"
                + " 12,345 records replayed; every other task kept running");
    }

    @Test
    void namesTheReasonOfAFailedRecoveryAndARestartFromScratch() {
        RecoveryView recovery = new RecoveryView(2, new TopologyId("t"), List.of(TaskId.parse("t/src#0")),
                detection("host-1", 900, null),
                new RecoveryView.Restoration(2, null, RecoveryMode.GLOBAL, null),
                new RecoveryView.Timings(null, null, 30L, null),
                new RecoveryView.Outcome("FAILED", "REDEPLOY_FAILED", "host-4 refused"), null);

        assertThat(RecoveryLine.format(recovery)).contains("(1 task: t/src#0)", "restored from scratch",
                "failed: REDEPLOY_FAILED - host-4 refused");
    }

    @Test
    void namesTheReasonOfAnAbandonedRecovery() {
        RecoveryView recovery = new RecoveryView(3, new TopologyId("t"), List.of(TaskId.parse("t/src#0")),
                detection("host-1", 900, null),
                new RecoveryView.Restoration(0, null, RecoveryMode.GLOBAL, null),
                new RecoveryView.Timings(null, null, null, null),
                new RecoveryView.Outcome("ABANDONED", "ROUTER_RESTARTED", "the router restarted"), null);

        assertThat(RecoveryLine.format(recovery)).startsWith("GLOBAL recovery 3 of t ABANDONED: host-1 failed")
                .endsWith("; abandoned: ROUTER_RESTARTED - the router restarted");
    }

    private static RecoveryView.Detection detection(String host, long millis, String cause) {
        return new RecoveryView.Detection(new HostId(host), Instant.EPOCH, Instant.EPOCH.plusMillis(millis), millis,
                cause);
    }
}
