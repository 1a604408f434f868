package io.steadfast.benchmarks;

import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.HostId;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@link RecoveryBenchmark} does to its victim host: {@link Kill} (SIGKILL: the process is gone, and a fresh host
 * replaces it for the next run) or {@link Freeze} (SIGSTOP for a set time, then SIGCONT: the process runs again, finds
 * its lease lapsed, stops its tasks and rejoins the router under a new session).
 */
sealed interface HostFault permits HostFault.Kill, HostFault.Freeze {

    /** How long {@code freeze} without a length keeps the host frozen. */
    Duration DEFAULT_FREEZE = Duration.ofSeconds(3);

    /** Parses {@code kill}, {@code freeze} (for {@link #DEFAULT_FREEZE}) or {@code freeze:<length>} ({@code 5s}). */
    static HostFault parse(String text) {
        String fault = text.trim().toLowerCase(Locale.ROOT);
        if (fault.equals("kill")) {
            return new Kill();
        }
        if (fault.equals("freeze")) {
            return new Freeze(DEFAULT_FREEZE);
        }
        if (fault.startsWith("freeze:")) {
            return new Freeze(parseLength(fault.substring("freeze:".length())));
        }
        throw new IllegalArgumentException("fault: '" + text + "' is none of kill, freeze (for "
                + DEFAULT_FREEZE.toMillis() + " ms) or freeze:<length> (e.g. freeze:5s, freeze:1500ms)");
    }

    private static Duration parseLength(String text) {
        try {
            Duration length = text.endsWith("ms") ? Duration.ofMillis(Long.parseLong(text.replaceFirst("ms$", "")))
                    : text.endsWith("s") ? Duration.ofSeconds(Long.parseLong(text.replaceFirst("s$", ""))) : null;
            if (length != null && length.compareTo(Duration.ZERO) > 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new IllegalArgumentException("fault: the freeze length '" + text + "' is not a positive number of"
                + " seconds or milliseconds, e.g. 5s or 1500ms");
    }

    /** The signal that starts the fault: SIGKILL or SIGSTOP. */
    String signal();

    /** The fault and its signals, for a heading: {@code kill (SIGKILL)}, {@code freeze (SIGSTOP for 3000 ms, ...)}. */
    String describe();

    /** Whether the victim's process runs again after the fault (and must rejoin the router). */
    boolean victimReturns();

    /** Injects the fault into {@code victim} now. The caller closes what it returns, in every path. */
    Injected inject(ClusterProcesses processes, HostId victim);

    /** A fault injected into one host. Closing it ends the fault now if it has not ended: a frozen host runs again. */
    interface Injected extends AutoCloseable {

        /** When the signal was sent (taken just before sending it). */
        Instant at();

        /** When the victim is to run again, or empty if it never does. */
        Optional<Instant> endsAt();

        /** Waits until the victim runs again, and returns when it did; empty at once if it never does. */
        Optional<Instant> awaitEnd() throws InterruptedException;

        @Override
        void close();
    }

    /** SIGKILL: the host is gone for good. */
    record Kill() implements HostFault {

        @Override
        public String signal() {
            return "SIGKILL";
        }

        @Override
        public boolean victimReturns() {
            return false;
        }

        @Override
        public Injected inject(ClusterProcesses processes, HostId victim) {
            Instant at = Instant.now();
            processes.killHost(victim);
            return new Killed(at);
        }

        @Override
        public String describe() {
            return "kill (SIGKILL)";
        }

        /** {@code kill}, for a table cell. */
        @Override
        public String toString() {
            return "kill";
        }
    }

    /** A killed host: nothing to end. */
    record Killed(Instant at) implements Injected {

        @Override
        public Optional<Instant> endsAt() {
            return Optional.empty();
        }

        @Override
        public Optional<Instant> awaitEnd() {
            return Optional.empty();
        }

        @Override
        public void close() {
        }
    }

    /** SIGSTOP for {@code length}, then SIGCONT. */
    record Freeze(Duration length) implements HostFault {

        public Freeze {
            if (length.compareTo(Duration.ZERO) <= 0) {
                throw new IllegalArgumentException("fault: a freeze must last a positive time, not " + length);
            }
        }

        @Override
        public String signal() {
            return "SIGSTOP";
        }

        @Override
        public boolean victimReturns() {
            return true;
        }

        @Override
        public Injected inject(ClusterProcesses processes, HostId victim) {
            Instant at = Instant.now();
            processes.pauseHost(victim);
            return new Frozen(processes, victim, at, length);
        }

        @Override
        public String describe() {
            return "freeze (SIGSTOP for " + length.toMillis() + " ms, then SIGCONT)";
        }

        /** {@code freeze 3000 ms}, for a table cell. */
        @Override
        public String toString() {
            return "freeze " + length.toMillis() + " ms";
        }
    }

    /** A frozen host, resumed {@code length} after it was frozen on a thread of its own, or when closed. */
    final class Frozen implements Injected {

        /** How long past its planned end {@link #awaitEnd()} waits for the resume. */
        private static final Duration RESUME_GRACE = Duration.ofSeconds(30);

        private final ClusterProcesses processes;
        private final HostId victim;
        private final Instant at;
        private final Duration length;
        private final CompletableFuture<Instant> resumed = new CompletableFuture<>();
        private final ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor(
                new DaemonThreads("bench-resume"));

        Frozen(ClusterProcesses processes, HostId victim, Instant at, Duration length) {
            this.processes = processes;
            this.victim = victim;
            this.at = at;
            this.length = length;
            resumer.schedule(this::resumeOnSchedule,
                    Math.max(0, Duration.between(Instant.now(), endsAtTime()).toNanos()), TimeUnit.NANOSECONDS);
        }

        @Override
        public Instant at() {
            return at;
        }

        @Override
        public Optional<Instant> endsAt() {
            return Optional.of(endsAtTime());
        }

        private Instant endsAtTime() {
            return at.plus(length);
        }

        @Override
        public Optional<Instant> awaitEnd() throws InterruptedException {
            try {
                return Optional.of(resumed.get(Duration.between(Instant.now(), endsAtTime().plus(RESUME_GRACE))
                        .toMillis(), TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                throw new IllegalStateException(victim + " was not resumed (SIGCONT) within " + RESUME_GRACE.toSeconds()
                        + " s of the end of its freeze");
            } catch (ExecutionException e) {
                throw new IllegalStateException("could not resume " + victim + ": " + e.getCause().getMessage(),
                        e.getCause());
            }
        }

        private void resumeOnSchedule() {
            try {
                resume();
            } catch (RuntimeException e) {
                resumed.completeExceptionally(e); // close() sends it again
            }
        }

        /** Sends SIGCONT unless it was sent already; serialised, so that the schedule and close() send it once. */
        private synchronized void resume() {
            if (processes.host(victim).filter(ServiceProcess::isPaused).isPresent()) {
                Instant now = Instant.now();
                processes.resumeHost(victim);
                resumed.complete(now);
            }
        }

        /** Resumes the host now if its freeze has not ended yet. */
        @Override
        public void close() {
            try {
                resume();
            } finally {
                resumer.shutdownNow();
                resumed.completeExceptionally(new IllegalStateException(victim + " was no longer frozen when its"
                        + " freeze was to end")); // no effect once resumed
            }
        }
    }
}
