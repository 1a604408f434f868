package io.steadfast.router.web;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
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

    /** A {@link Recovery} in JSON, ids as text, its groups' members flat; see its fields there. */
    record RecoveryView(long id, String topology, List<String> tasks, @JsonUnwrapped DetectionView detection,
                        @JsonUnwrapped RestorationView restoration, @JsonUnwrapped Recovery.Timings timings,
                        @JsonUnwrapped Recovery.Outcome outcome, LocalRecoveryMeasures local) {

        static RecoveryView of(Recovery r) {
            return new RecoveryView(r.id(), r.topology().value(), r.tasks().stream().map(TaskId::toString).toList(),
                    new DetectionView(r.failedHost().value(), r.lastHeartbeat(), r.detectedAt(), r.detectionMillis(),
                            r.detectionCause() == null ? null : r.detectionCause().name()),
                    new RestorationView(r.epoch(), r.restoredFrom(),
                            (r.mode() == null ? RecoveryMode.GLOBAL : r.mode()).name(), r.otherTasksPaused()),
                    r.timings(), r.outcome(), r.local());
        }
    }

    /** {@link Recovery.Detection}, the host id as text. */
    record DetectionView(String failedHost, Instant lastHeartbeat, Instant detectedAt, long detectionMillis,
                         String detectionCause) {
    }

    /** {@link Recovery.Restoration} as clients see it: a recovery of unknown mode was GLOBAL. */
    record RestorationView(int epoch, Long restoredFrom, String mode, Boolean otherTasksPaused) {
    }
}
