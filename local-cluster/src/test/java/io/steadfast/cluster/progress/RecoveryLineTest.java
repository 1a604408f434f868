package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.client.RecoveryView;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecoveryLineTest {

    @Test
    void describesARecoveredFailureWithItsTimes() {
        RecoveryView recovery = new RecoveryView(1, new TopologyId("word-count"), new HostId("host-2"),
                List.of("word-count/count#1", "word-count/sink#0"), 1, 7L, null, 812, 640L, 2310L, "RECOVERED", null, "ok",
                "HEARTBEAT_TIMEOUT");

        assertThat(RecoveryLine.format(recovery)).isEqualTo("recovery 1 of word-count RECOVERED: host-2 failed (2 tasks: "
                + "word-count/count#1, word-count/sink#0); detected after 812 ms, restored from checkpoint 7 in 640 ms, "
                + "caught up after 2,310 ms");
    }

    @Test
    void describesALocalRecoveryWithWhatWasReplayedAndThatTheOtherTasksKeptRunning() {
        RecoveryView recovery = new RecoveryView(4, new TopologyId("t"), new HostId("host-2"), List.of("t/count#1"), 0,
                3L, null, 310, 90L, 240L, "RECOVERED", null, "ok", "DATA_PLANE_DISCONNECT", "LOCAL", null,
                new RecoveryView.LocalMeasures(null, Map.of("t/count#1", "host-4"), 1, 20, 10, 5, 300, 12_345L,
                        99_000L, null), false);

        assertThat(RecoveryLine.format(recovery)).isEqualTo("LOCAL recovery 4 of t RECOVERED: host-2 failed (1 task:"
                + " t/count#1); detected after 310 ms, restored from checkpoint 3 in 90 ms, caught up after 240 ms,"
                + " 12,345 records replayed; every other task kept running");
    }

    @Test
    void namesTheReasonOfAFailedRecoveryAndARestartFromScratch() {
        RecoveryView recovery = new RecoveryView(2, new TopologyId("t"), new HostId("host-1"), List.of("t/src#0"), 2,
                null, null, 900, 30L, null, "FAILED", "REDEPLOY_FAILED", "host-4 refused",
                null);

        assertThat(RecoveryLine.format(recovery)).contains("(1 task: t/src#0)", "restored from scratch",
                "failed: REDEPLOY_FAILED - host-4 refused");
    }

    @Test
    void namesTheReasonOfAnAbandonedRecovery() {
        RecoveryView recovery = new RecoveryView(3, new TopologyId("t"), new HostId("host-1"), List.of("t/src#0"), 0,
                null, null, 900, null, null, "ABANDONED", "ROUTER_RESTARTED", "the router restarted",
                null);

        assertThat(RecoveryLine.format(recovery)).startsWith("recovery 3 of t ABANDONED: host-1 failed")
                .endsWith("; abandoned: ROUTER_RESTARTED - the router restarted");
    }
}
