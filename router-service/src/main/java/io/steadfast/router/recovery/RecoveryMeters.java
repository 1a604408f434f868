package io.steadfast.router.recovery;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.steadfast.runtime.plan.RecoveryMode;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The router's recovery meters, fed by the {@link RecoveryLog} as each recovery is saved, from the step it took since
 * its previous copy: the counter {@code steadfast.recoveries} tagged {@code mode} (LOCAL, GLOBAL) and {@code outcome}
 * (RECOVERED, FAILED, ABANDONED) when it ends; the timer {@code steadfast.recovery.detection} (heartbeat silence until
 * detection, when it starts; untagged, as the mode is decided after); the timers {@code steadfast.recovery.restore}
 * (detection until restored) and {@code steadfast.recovery.catchup} (restored until caught up), tagged {@code mode};
 * and, for a local recovery that
 * caught up, the counters {@code steadfast.recovery.replayed.records} and {@code steadfast.recovery.replayed.bytes}.
 * The mode is the one the recovery has at that step (a local one that fell back is GLOBAL from then on). Thread-safe.
 */
public final class RecoveryMeters implements RecoveryLog.Transitions {

    private static final RecoveryStatus[] ENDS = {RecoveryStatus.RECOVERED, RecoveryStatus.FAILED,
            RecoveryStatus.ABANDONED};

    private final MeterRegistry registry;
    private final Counter replayedRecords;
    private final Counter replayedBytes;

    /** Registers the counters of every mode and outcome at zero, so that an alert sees them before a recovery. */
    public RecoveryMeters(MeterRegistry registry) {
        this.registry = registry;
        for (RecoveryMode mode : RecoveryMode.values()) {
            for (RecoveryStatus end : ENDS) {
                recoveries(mode.name(), end);
            }
        }
        replayedRecords = Counter.builder("steadfast.recovery.replayed.records")
                .description("Records the tasks of local recoveries took in until they caught up").register(registry);
        replayedBytes = Counter.builder("steadfast.recovery.replayed.bytes").baseUnit("bytes")
                .description("Input frame bytes the tasks of local recoveries took in until they caught up")
                .register(registry);
    }

    @Override
    public void saved(@Nullable Recovery previous, Recovery saved) {
        String mode = saved.mode() == null ? RecoveryMode.GLOBAL.name() : saved.mode().name();
        if (previous == null) {
            timer("steadfast.recovery.detection", "Heartbeat silence until a failure was detected", null)
                    .record(Math.max(0, saved.detectionMillis()), TimeUnit.MILLISECONDS);
        }
        if (saved.restoreMillis() != null && (previous == null || previous.restoreMillis() == null)) {
            timer("steadfast.recovery.restore", "Detection until every host answered the redeployment", mode)
                    .record(Duration.ofMillis(Math.max(0, saved.restoreMillis())));
        }
        if (saved.catchUpMillis() != null && (previous == null || previous.catchUpMillis() == null)) {
            timer("steadfast.recovery.catchup", "Restored until the output caught up", mode)
                    .record(Duration.ofMillis(Math.max(0, saved.catchUpMillis())));
            LocalRecoveryMeasures local = saved.local();
            if (local != null && local.replayedRecords() != null) {
                replayedRecords.increment(local.replayedRecords());
            }
            if (local != null && local.replayedBytes() != null) {
                replayedBytes.increment(local.replayedBytes());
            }
        }
        if (saved.status() != RecoveryStatus.RECOVERING
                && (previous == null || !Objects.equals(previous.status(), saved.status()))) {
            recoveries(mode, saved.status()).increment();
        }
    }

    private Counter recoveries(String mode, RecoveryStatus outcome) {
        return Counter.builder("steadfast.recoveries").description("Recoveries ended, by mode and outcome")
                .tags("mode", mode, "outcome", outcome.name()).register(registry);
    }

    private Timer timer(String name, String description, @Nullable String mode) {
        Timer.Builder timer = Timer.builder(name).description(description);
        if (mode != null) {
            timer.tag("mode", mode);
        }
        return timer.publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
    }
}
