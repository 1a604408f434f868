package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.router.failure.DetectionCause;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class RecoveryTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    private static Recovery.Builder started() {
        return Recovery.builder().id(7).topology(new TopologyId("t")).tasks(List.of(TaskId.parse("t/count#0")))
                .failure(new HostId("host-2"), AT, AT.plusMillis(900)).detection(900, DetectionCause.HEARTBEAT_TIMEOUT)
                .restoration(RecoveryMode.LOCAL, 1, 42).status(RecoveryStatus.RECOVERING, null, "recovering");
    }

    @Test
    void refusesToBuildARecoveryWithoutItsTopologyOrFailedHostNamingWhatIsMissing() {
        assertThatThrownBy(() -> Recovery.builder().id(1).status(RecoveryStatus.RECOVERING, null, "x").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("topology=null")
                .hasMessageContaining("failedHost=null");
    }

    @Test
    void refusesToBuildARecoveredRecoveryThatNeverCaughtUp() {
        assertThatThrownBy(() -> started().status(RecoveryStatus.RECOVERED, null, "done").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("caughtUpAt");
    }

    @Test
    void keepsItsJsonFlatSoThatStoredRecoveriesStayReadable() {
        Recovery recovery = started().local(LocalRecoveryMeasures.restored(AT, Map.of("t/count#0", "host-4"), 1,
                new LocalRecoveryMeasures.TargetHosts(20, 10, 5, 300))).build();

        JsonNode json = JSON.readTree(JSON.writeValueAsString(recovery));

        assertThat(json.get("detectionCause").asString()).isEqualTo("HEARTBEAT_TIMEOUT");
        assertThat(json.get("sinkRecordsTarget").asLong()).isEqualTo(42);
        assertThat(json.get("status").asString()).isEqualTo("RECOVERING");
        assertThat(json.get("local").get("decisionBytes").asLong()).isEqualTo(300);
        assertThat(json.has("detection")).isFalse();
        assertThat(JSON.readValue(json.toString(), Recovery.class)).isEqualTo(recovery);
    }
}
