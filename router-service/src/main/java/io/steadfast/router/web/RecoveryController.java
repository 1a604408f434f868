package io.steadfast.router.web;

import io.steadfast.protocol.router.LocalRecoveryView;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.router.recovery.LocalRecoveryMeasures;
import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The recoveries this router ran, newest first, with their times. */
@RestController
@Tag(name = RouterApiDocs.RECOVERIES)
class RecoveryController {

    private final RecoveryLog log;

    RecoveryController(RecoveryLog log) {
        this.log = log;
    }

    /** Every recovery this router ran, or only those of {@code topology}. */
    @GetMapping("/api/v1/recoveries")
    @Operation(operationId = "listRecoveries")
    List<RecoveryView> list(@RequestParam(required = false) String topology) {
        if (topology != null && !TopologyId.isValid(topology)) {
            throw new IllegalArgumentException("topology: '" + topology + "' is not a topology id; give the id a"
                    + " topology was submitted with, or leave the parameter out for every recovery");
        }
        return log.all().stream().filter(r -> topology == null || r.topology().value().equals(topology))
                .map(RecoveryController::viewOf).toList();
    }

    /**
     * A {@link Recovery} as clients see it: without what only the router needs ({@code sinkRecordsTarget}); a
     * recovery of unknown mode (stored before the mode was kept) was GLOBAL.
     */
    private static RecoveryView viewOf(Recovery r) {
        return new RecoveryView(r.id(), r.topology(), r.tasks(),
                new RecoveryView.Detection(r.failedHost(), r.lastHeartbeat(), r.detectedAt(), r.detectionMillis(),
                        r.detectionCause() == null ? null : r.detectionCause().name()),
                new RecoveryView.Restoration(r.epoch(),
                        r.restoredFrom() == null ? null : CheckpointId.of(r.restoredFrom()),
                        r.mode() == null ? RecoveryMode.GLOBAL : r.mode(), r.otherTasksPaused(), r.forecast()),
                new RecoveryView.Timings(r.restoredAt(), r.caughtUpAt(), r.restoreMillis(), r.catchUpMillis()),
                new RecoveryView.Outcome(r.status().name(), r.failureReason(), r.message()),
                r.local() == null ? null : localViewOf(r.local()));
    }

    /** The task and host ids the router stores as text, typed again. */
    private static LocalRecoveryView localViewOf(LocalRecoveryMeasures measures) {
        Map<TaskId, HostId> placedOn = measures.placedOn().entrySet().stream().collect(Collectors.toMap(
                entry -> TaskId.parse(entry.getKey()), entry -> HostId.of(entry.getValue())));
        LocalRecoveryMeasures.TargetHosts targets = measures.targetHosts();
        return new LocalRecoveryView(measures.requestedAt(), placedOn, measures.standbyHosts(),
                new LocalRecoveryView.TargetHosts(targets.snapshotMillis(), targets.decisionMillis(),
                        targets.startMillis(), targets.decisionBytes()),
                measures.replayedRecords(), measures.replayedBytes(), measures.fallbackReason());
    }
}
