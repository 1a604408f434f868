package io.steadfast.router.recovery;

import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.topology.DeployedTopology;
import io.steadfast.runtime.plan.RecoveryMode;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Escalates a recovery that cannot finish: a LOCAL one whose tasks have not caught up {@link #CATCH_UP_AT_MOST} after
 * they were restored is superseded by a GLOBAL recovery of the topology; a GLOBAL one is marked FAILED
 * ({@code CATCH_UP_TIMEOUT}), which {@link FailedRecoveryRetries} retries. Never left RECOVERING.
 */
final class CatchUpEscalation {

    private static final Logger LOG = LoggerFactory.getLogger(CatchUpEscalation.class);
    /** How long restored tasks may take to catch up before their recovery is escalated (LOCAL to GLOBAL). */
    static final Duration CATCH_UP_AT_MOST = Duration.ofSeconds(60);

    private final RecoveryContext context;
    private final RecoveryRequest.Starter recoveries;

    CatchUpEscalation(RecoveryContext context, RecoveryRequest.Starter recoveries) {
        this.context = context;
        this.recoveries = recoveries;
    }

    /** Escalates {@code recovery} of {@code topology} if it is still RECOVERING {@link #CATCH_UP_AT_MOST} after its restore. */
    void escalateIfStuck(Recovery recovery, DeployedTopology topology) {
        Optional<Recovery> now = context.log().find(recovery.id());
        if (now.isEmpty() || now.get().status() != RecoveryStatus.RECOVERING || recovery.restoredAt() == null
                || Duration.between(recovery.restoredAt(), context.clock().instant()).compareTo(CATCH_UP_AT_MOST) < 0) {
            return;
        }
        String text = "Tasks " + recovery.tasks() + " of '" + topology.id() + "' had not caught up "
                + CATCH_UP_AT_MOST.toSeconds() + " s after they were restored (recovery " + recovery.id() + ", "
                + recovery.mode() + ")";
        if (recovery.mode() == RecoveryMode.LOCAL) {
            LOG.warn("{}; recovering the topology globally instead", text);
            recoveries.start(new RecoveryRequest(topology, new DetectedFailure(recovery.failedHost(),
                    recovery.lastHeartbeat(), context.clock().instant(), DetectionCause.CATCH_UP_TIMEOUT),
                    topology.placement().keySet().stream().sorted().toList(), null, true));
        } else {
            LOG.warn("{}; marking it FAILED, to be retried", text);
            context.log().save(recovery.failed("CATCH_UP_TIMEOUT", text + "; retried in "
                    + RecoveryOrchestrator.RETRY_BACKOFF.toSeconds() + " s"));
        }
    }
}
