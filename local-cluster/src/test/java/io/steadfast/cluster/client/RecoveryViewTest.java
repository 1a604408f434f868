package io.steadfast.cluster.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.LocalRecoveryView;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecoveryViewTest {

    /** A recovery as the router lists it: every member of the view's groups flat in one object. */
    private static final String LISTED = """
            {"id": 4, "topology": "t", "tasks": ["t/count#1"], "failedHost": "host-2",
             "lastHeartbeat": "2026-01-01T00:00:00Z", "detectedAt": "2026-01-01T00:00:00.300Z",
             "detectionMillis": 300, "detectionCause": "DATA_PLANE_DISCONNECT", "epoch": 0, "restoredFrom": 3,
             "mode": "LOCAL", "otherTasksPaused": false, "restoredAt": "2026-01-01T00:00:01Z",
             "caughtUpAt": "2026-01-01T00:00:02Z", "restoreMillis": 90, "catchUpMillis": 240, "status": "RECOVERED",
             "failureReason": null, "message": "ok",
             "local": {"requestedAt": "2026-01-01T00:00:00Z", "placedOn": {"t/count#1": "host-4"}, "standbyHosts": 1,
                       "snapshotMillis": 20, "decisionMillis": 10, "startMillis": 5, "decisionBytes": 300,
                       "replayedRecords": 12345, "replayedBytes": 99000, "fallbackReason": null}}""";

    @Test
    void readsTheFlatRecoveryTheRouterListsIntoItsGroups() {
        RecoveryView view = new RouterClient(URI.create("http://127.0.0.1:1")).json()
                .readValue(LISTED, RecoveryView.class);

        assertThat(view.detection().failedHost()).isEqualTo(new HostId("host-2"));
        assertThat(view.detection().detectionMillis()).isEqualTo(300);
        assertThat(view.detection().detectionCause()).isEqualTo("DATA_PLANE_DISCONNECT");
        assertThat(view.restoration().restoredFrom()).isEqualTo(CheckpointId.of(3));
        assertThat(view.isLocal()).isTrue();
        assertThat(view.restoration().otherTasksPaused()).isFalse();
        assertThat(view.timings().restoreMillis()).isEqualTo(90L);
        assertThat(view.timings().catchUpMillis()).isEqualTo(240L);
        assertThat(view.timings().caughtUpAt()).isEqualTo(Instant.parse("2026-01-01T00:00:02Z"));
        assertThat(view.isRecovered()).isTrue();
        assertThat(view.outcome().message()).isEqualTo("ok");
        assertThat(view.local().targetHosts()).isEqualTo(new LocalRecoveryView.TargetHosts(20, 10, 5, 300));
        assertThat(view.local().replayedRecords()).isEqualTo(12_345L);
        assertThat(view.placedAnyTaskOn(new HostId("host-4"))).isTrue();
    }
}
