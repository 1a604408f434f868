package io.steadfast.router.failure;

import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.plan.HostId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a host at once when a peer reports that its data-plane connection to it dropped, so that a dead host is
 * declared DEAD before its heartbeat timeout. A report is a hint, never a verdict: the host is declared DEAD only
 * if its machine refuses the health probe's connection (nothing listens on its control port: the process is gone)
 * and it has also missed a heartbeat (silent for at least {@code minSilence}); until then it is probed again as that
 * silence grows, and a heartbeat ends the check. A probe that gets no answer at all proves nothing: a frozen or
 * partitioned host may still run its tasks, so it is left to the heartbeat timeout, which its lease lapses within
 * (see {@code HostAdmission}); its recovery is prepared meanwhile ({@link #onSuspected}). A
 * report about a host already being checked joins that check. Checks run on one thread,
 * {@code steadfast-router-suspicions}, never on the caller's. Thread-safe.
 */
public final class SuspicionChecker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SuspicionChecker.class);

    /** How a check ended. */
    public enum Outcome {
        /** The host is not registered. */
        UNKNOWN_HOST,
        /** The host was DEAD already. */
        ALREADY_DEAD,
        /** The host answered its health probe: it stays LIVE. */
        ANSWERED_PROBE,
        /** The host heartbeated while it was being checked: it stays LIVE. */
        HEARTBEAT_ARRIVED,
        /** The host's machine refused the probe (nothing listens: the process is gone) and it missed a heartbeat. */
        DECLARED_DEAD,
        /**
         * The host did not answer its probe, but its machine did not refuse it either: it may be frozen, overloaded
         * or cut off and still run its tasks, so it is left to the heartbeat timeout, which its lease lapses within.
         */
        NO_ANSWER,
        /** Checks are switched off ({@code steadfast.router.suspicion.enabled=false}). */
        IGNORED
    }

    private final HeartbeatFailureDetector detector;
    private final HostProbe probe;
    private final Clock clock;
    private final Duration minSilence;
    private final boolean enabled;
    private final boolean refusedIsDead;
    private final Map<HostId, CompletableFuture<Outcome>> running = new ConcurrentHashMap<>();
    private final List<Consumer<HostId>> suspectedListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steadfast-router-suspicions");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param minSilence how long a host that does not answer its probe must also have been silent (a missed
     *                   heartbeat) before it is declared DEAD
     * @param enabled whether reports are checked at all
     */
    public SuspicionChecker(HeartbeatFailureDetector detector, HostProbe probe, Clock clock, Duration minSilence,
                            boolean enabled) {
        this(detector, probe, clock, minSilence, enabled, false);
    }

    /**
     * @param refusedIsDead whether a host whose machine refuses the probe's connection (nothing listens on its control
     *                      port: the process is gone) is declared DEAD at once, without waiting for a missed heartbeat
     */
    public SuspicionChecker(HeartbeatFailureDetector detector, HostProbe probe, Clock clock, Duration minSilence,
                            boolean enabled, boolean refusedIsDead) {
        this.detector = detector;
        this.probe = probe;
        this.clock = clock;
        this.minSilence = minSilence;
        this.enabled = enabled;
        this.refusedIsDead = refusedIsDead;
    }

    /**
     * Tells {@code listener}, on the checker's thread, of each host that did not answer its probe and is now waited
     * for to miss its heartbeat before it is declared DEAD (once per check): what can be prepared for its recovery
     * may start. The host may yet prove alive.
     */
    public void onSuspected(Consumer<HostId> listener) {
        suspectedListeners.add(listener);
    }

    /**
     * Checks {@code suspect} because {@code reporter} lost its data-plane connection to it; returns at once.
     *
     * @return how the check ended (also logged); completes on the checker's thread
     */
    public CompletableFuture<Outcome> suspect(HostId suspect, HostId reporter) {
        if (!enabled) {
            LOG.debug("Host {} reported a lost connection to host {}; suspicion checks are switched off", reporter,
                    suspect);
            return CompletableFuture.completedFuture(Outcome.IGNORED);
        }
        Optional<RegisteredHost> host = detector.host(suspect);
        if (host.isEmpty()) {
            return CompletableFuture.completedFuture(Outcome.UNKNOWN_HOST);
        }
        if (detector.statusOf(host.get()) == HostStatus.DEAD) {
            return CompletableFuture.completedFuture(Outcome.ALREADY_DEAD);
        }
        CompletableFuture<Outcome> check = new CompletableFuture<>();
        CompletableFuture<Outcome> ongoing = running.putIfAbsent(suspect, check);
        if (ongoing != null) {
            return ongoing;
        }
        LOG.info("Host {} lost its data-plane connection to host {} (last heartbeat {}); probing it", reporter,
                suspect, host.get().lastHeartbeat());
        check.whenComplete((outcome, error) -> running.remove(suspect, check));
        AtomicBoolean announced = new AtomicBoolean();
        schedule(() -> check(suspect, reporter, host.get().lastHeartbeat(), check, announced), Duration.ZERO, check);
        return check;
    }

    private void check(HostId suspect, HostId reporter, Instant heartbeatAtReport, CompletableFuture<Outcome> check,
                       AtomicBoolean announced) {
        Optional<RegisteredHost> before = detector.host(suspect);
        if (before.isEmpty()) {
            check.complete(Outcome.UNKNOWN_HOST);
            return;
        }
        if (before.get().lastHeartbeat().isAfter(heartbeatAtReport)) {
            finish(check, Outcome.HEARTBEAT_ARRIVED, suspect, reporter);
            return;
        }
        HostProbe.Result probed = probe.probe(before.get());
        if (probed == HostProbe.Result.ANSWERED) {
            finish(check, Outcome.ANSWERED_PROBE, suspect, reporter);
            return;
        }
        RegisteredHost host = detector.host(suspect).orElse(before.get());
        if (host.lastHeartbeat().isAfter(heartbeatAtReport)) {
            finish(check, Outcome.HEARTBEAT_ARRIVED, suspect, reporter);
            return;
        }
        Duration silence = Duration.between(host.lastHeartbeat(), clock.instant());
        if (probed == HostProbe.Result.NO_ANSWER) {
            // frozen, overloaded or cut off: it may still run its tasks, so only its lapsed lease (within the
            // heartbeat timeout) makes it safe to move them; what can be prepared for that starts now
            if (!announced.getAndSet(true)) {
                announceSuspected(suspect);
            }
            LOG.info("Host {}, reported disconnected by host {}, did not answer its probe ({} ms after its last"
                    + " heartbeat); the heartbeat timeout decides", suspect, reporter, silence.toMillis());
            check.complete(Outcome.NO_ANSWER);
            return;
        }
        if (refusedIsDead) {
            boolean dead = detector.declareDead(suspect, host.lastHeartbeat(), DetectionCause.DATA_PLANE_DISCONNECT,
                    "host " + reporter + " lost its data-plane connection to it and its machine refused the health"
                            + " probe's connection (nothing listens on its control port) " + silence.toMillis()
                            + " ms after its last heartbeat");
            finish(check, dead ? Outcome.DECLARED_DEAD : Outcome.HEARTBEAT_ARRIVED, suspect, reporter);
            return;
        }
        if (silence.compareTo(minSilence) < 0) {
            // refused, but no heartbeat missed yet either: look again once one is
            schedule(() -> check(suspect, reporter, heartbeatAtReport, check, announced), minSilence.minus(silence),
                    check);
            if (!announced.getAndSet(true)) {
                announceSuspected(suspect);
            }
            return;
        }
        boolean dead = detector.declareDead(suspect, host.lastHeartbeat(), DetectionCause.DATA_PLANE_DISCONNECT,
                "host " + reporter + " lost its data-plane connection to it, its machine refused the health probe's"
                        + " connection (nothing listens on its control port) and it sent no heartbeat for "
                        + silence.toMillis() + " ms");
        finish(check, dead ? Outcome.DECLARED_DEAD : Outcome.HEARTBEAT_ARRIVED, suspect, reporter);
    }

    private void announceSuspected(HostId suspect) {
        for (Consumer<HostId> listener : suspectedListeners) {
            try {
                listener.accept(suspect);
            } catch (RuntimeException e) {
                LOG.warn("Preparing for the recovery of suspected host {} failed; its recovery does without", suspect,
                        e);
            }
        }
    }

    private void finish(CompletableFuture<Outcome> check, Outcome outcome, HostId suspect, HostId reporter) {
        if (outcome == Outcome.ANSWERED_PROBE || outcome == Outcome.HEARTBEAT_ARRIVED) {
            LOG.info("Host {}, reported disconnected by host {}, is alive ({}); it stays LIVE", suspect, reporter,
                    outcome);
        }
        check.complete(outcome);
    }

    private void schedule(Runnable step, Duration delay, CompletableFuture<Outcome> check) {
        try {
            executor.schedule(() -> {
                try {
                    step.run();
                } catch (RuntimeException e) {
                    LOG.error("Checking a suspected host failed", e);
                    check.completeExceptionally(e);
                }
            }, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            check.completeExceptionally(e); // closing
        }
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }
}
