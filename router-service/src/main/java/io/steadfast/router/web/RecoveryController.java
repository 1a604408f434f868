package io.steadfast.router.web;

import io.steadfast.router.recovery.LocalRecoveryMeasures;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The recoveries this router ran, newest first, with their times. */
@RestController
class RecoveryController {

    private final RecoveryLog log;

    RecoveryController(RecoveryLog log) {
        this.log = log;
    }

    /** Every recovery this router ran, or only those of {@code topology}. */
    @GetMapping("/api/v1/recoveries")
    List<RecoveryView> list(@RequestParam(required = false) String topology) {
        if (topology != null && !TopologyId.isValid(topology)) {
            throw new IllegalArgumentException("topology: '" + topology + "' is not a topology id; give the id a"
                    + " topology was submitted with, or leave the parameter out for every recovery");
        }
        return log.all().stream().filter(r -> topology == null || r.topology().value().equals(topology))
                .map(RecoveryView::of).toList();
    }

    /** A {@link Recovery} in JSON, ids as text; see its fields there. */
    record RecoveryView(long id, String topology, String failedHost, List<String> tasks, int epoch, Long restoredFrom,
                        Instant lastHeartbeat, Instant detectedAt, Instant restoredAt, Instant caughtUpAt,
                        long detectionMillis, Long restoreMillis, Long catchUpMillis, String status,
                        String failureReason, String message, String detectionCause, String mode,
                        LocalRecoveryMeasures local, Boolean otherTasksPaused) {

        static RecoveryView of(Recovery r) {
            return new RecoveryView(r.id(), r.topology().value(), r.failedHost().value(),
                    r.tasks().stream().map(TaskId::toString).toList(), r.epoch(), r.restoredFrom(), r.lastHeartbeat(),
                    r.detectedAt(), r.restoredAt(), r.caughtUpAt(), r.detectionMillis(), r.restoreMillis(),
                    r.catchUpMillis(), r.status().name(), r.failureReason(), r.message(),
                    r.detectionCause() == null ? null : r.detectionCause().name(),
                    (r.mode() == null ? RecoveryMode.GLOBAL : r.mode()).name(), r.local(), r.otherTasksPaused());
        }
    }
}
