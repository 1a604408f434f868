package io.steadfast.router.failure;

import io.steadfast.router.host.HostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.plan.HostId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a host is LIVE or DEAD from the time of its last heartbeat: DEAD once no heartbeat arrived
 * for longer than the timeout, or once {@link #declareDead declared} so on other evidence (a confirmed data-plane
 * disconnect) with no heartbeat since. The status is computed on read from the injected clock, so it is never
 * stale; {@link #sweep()} (called periodically) logs each LIVE/DEAD transition once, records every LIVE to DEAD
 * transition as a {@link DetectedFailure} with its cause and tells the listeners (on the sweeping thread: hand
 * off and return). A heartbeat after either makes the host LIVE again. Recovery is not decided here.
 * Thread-safe.
 */
public final class HeartbeatFailureDetector {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatFailureDetector.class);

    private final HostRegistry hosts;
    private final Clock clock;
    private final Duration timeout;
    private final Map<HostId, HostStatus> lastLogged = new ConcurrentHashMap<>();
    private final List<DetectedFailure> failures = new CopyOnWriteArrayList<>();
    private final List<Consumer<DetectedFailure>> listeners = new CopyOnWriteArrayList<>();
    /** Hosts declared DEAD before their timeout, and the last heartbeat they had then. */
    private final Map<HostId, Declared> declared = new ConcurrentHashMap<>();

    private final Duration startupGrace;
    private final OwnPauses ownPauses;

    /** Without a startup grace: new hosts are judged by the timeout alone. */
    public HeartbeatFailureDetector(HostRegistry hosts, Clock clock, Duration timeout) {
        this(hosts, clock, timeout, Duration.ZERO);
    }

    /** Blind to the router's own pauses: silence is measured by the clock alone. */
    public HeartbeatFailureDetector(HostRegistry hosts, Clock clock, Duration timeout, Duration startupGrace) {
        this(hosts, clock, timeout, startupGrace, OwnPauses.NONE);
    }

    /**
     * @param ownPauses when this router last resumed from a pause of its own: no host's silence counts from before
     *                  then, since the router could not read heartbeats while it did not run
     */
    public HeartbeatFailureDetector(HostRegistry hosts, Clock clock, Duration timeout, Duration startupGrace,
                                    OwnPauses ownPauses) {
        this.startupGrace = startupGrace;
        this.hosts = hosts;
        this.clock = clock;
        this.timeout = timeout;
        this.ownPauses = ownPauses;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * DEAD once a host has been silent for longer than the timeout. A host in its first startup grace after
     * registering may be silent for the whole grace instead: a JVM that has just
     * started is busy compiling and loading classes, and on a loaded machine its first heartbeats come late;
     * declaring it dead then would send every topology into a needless global recovery. Silence is counted from
     * the last heartbeat, or from the router's own resumption if it did not run for a while since (see
     * {@link OwnPauseWatch}).
     */
    public HostStatus statusOf(RegisteredHost host) {
        Declared declaration = declared.get(host.id());
        if (declaration != null && declaration.holdsFor(host)) {
            return HostStatus.DEAD;
        }
        Instant now = clock.instant();
        boolean starting = now.isBefore(host.registeredAt().plus(startupGrace));
        Instant silentSince = latest(host.lastHeartbeat(), ownPauses.resumedAt());
        Instant deadline = silentSince.plus(starting && startupGrace.compareTo(timeout) > 0
                ? startupGrace : timeout);
        return now.isAfter(deadline) ? HostStatus.DEAD : HostStatus.LIVE;
    }

    /** A registered host, whatever its status. */
    public Optional<RegisteredHost> host(HostId id) {
        return hosts.find(id);
    }

    /** The LIVE hosts, sorted by id. */
    public List<RegisteredHost> liveHosts() {
        return hosts.all().stream().filter(host -> statusOf(host) == HostStatus.LIVE).toList();
    }

    /** Tells {@code listener} of every failure detected from now on. */
    public void onFailure(Consumer<DetectedFailure> listener) {
        listeners.add(listener);
    }

    /** Every failure detected so far, oldest first. */
    public List<DetectedFailure> failures() {
        return List.copyOf(failures);
    }

    /**
     * Declares a host DEAD before its heartbeat timeout, on other evidence, unless it heartbeated after
     * {@code lastHeartbeatSeen} (the heartbeat the evidence was judged against); then sweeps at once, so that the
     * failure is recorded and the listeners told on the calling thread.
     *
     * @param evidence what was seen, for the log
     * @return whether the host is DEAD now
     */
    public boolean declareDead(HostId host, Instant lastHeartbeatSeen, DetectionCause cause, String evidence) {
        Optional<RegisteredHost> current = hosts.find(host);
        if (current.isEmpty() || current.get().lastHeartbeat().isAfter(lastHeartbeatSeen)) {
            return false;
        }
        declared.put(host, new Declared(lastHeartbeatSeen, cause, evidence, null));
        sweep();
        return hosts.find(host).map(this::statusOf).orElse(HostStatus.DEAD) == HostStatus.DEAD;
    }

    /**
     * Declares one registration of a host DEAD on evidence its heartbeats cannot refute (its pod was deleted, evicted
     * or turned not ready): it stays DEAD whatever it sends until it registers again under a new session or instance.
     * A process whose pod is gone may well still heartbeat for a while; with {@link #declareDead} a heartbeat that
     * arrived between reading the host and declaring it would cancel the declaration, and the evidence, seen once,
     * would be lost. Sweeps at once, as {@link #declareDead} does.
     *
     * @param registration the registration the evidence is about; nothing is declared if the host has registered
     *                     again since, or if it names neither a session nor an instance (nothing then tells its
     *                     incarnations apart)
     * @return whether that registration is DEAD now
     */
    public boolean declareDeadWhateverItSends(RegisteredHost registration, DetectionCause cause, String evidence) {
        Incarnation incarnation = Incarnation.of(registration);
        Optional<RegisteredHost> current = hosts.find(registration.id());
        if (incarnation == null || current.isEmpty() || !incarnation.equals(Incarnation.of(current.get()))) {
            return false;
        }
        declared.put(registration.id(), new Declared(current.get().lastHeartbeat(), cause, evidence, incarnation));
        sweep();
        return hosts.find(registration.id()).map(this::statusOf).orElse(HostStatus.DEAD) == HostStatus.DEAD;
    }

    /** Logs every host whose status changed since the last sweep and records each that went DEAD. */
    public synchronized void sweep() {
        for (RegisteredHost host : hosts.all()) {
            HostStatus status = statusOf(host);
            HostStatus before = lastLogged.put(host.id(), status);
            Declared declaration = declared.get(host.id());
            if (status == HostStatus.LIVE && declaration != null) {
                declared.remove(host.id(), declaration); // it heartbeated since
            }
            if (status == before) {
                continue;
            }
            if (status == HostStatus.DEAD) {
                boolean early = declaration != null && declaration.holdsFor(host);
                DetectedFailure failure = new DetectedFailure(host.id(), host.lastHeartbeat(), clock.instant(),
                        early ? declaration.cause() : DetectionCause.HEARTBEAT_TIMEOUT);
                failures.add(failure);
                if (early) {
                    LOG.warn("Host {} is DEAD ({}): {}; last heartbeat {}, {} ms ago (timeout {}); recovering its"
                            + " topologies. Check the host's /actuator/health and its log", host.id(),
                            failure.cause(), declaration.evidence(), host.lastHeartbeat(),
                            failure.detectionTime().toMillis(), timeout);
                } else {
                    LOG.warn("Host {} is DEAD: no heartbeat since {} (timeout {}); recovering its topologies. "
                            + "Check the host's /actuator/health and its log", host.id(), host.lastHeartbeat(), timeout);
                }
                for (Consumer<DetectedFailure> listener : listeners) {
                    try {
                        listener.accept(failure);
                    } catch (RuntimeException e) {
                        LOG.error("A failure listener failed on {}", failure, e);
                    }
                }
            } else if (before != null) {
                LOG.info("Host {} is LIVE again (heartbeat at {}) after it was declared DEAD: a new session, rejoined"
                        + " empty (HostAdmission refuses the session declared DEAD), takes new tasks", host.id(),
                        host.lastHeartbeat());
            }
        }
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * A declaration of DEAD: until the host heartbeats after {@code lastHeartbeat}, or, if {@code irrefutable}, for as
     * long as that incarnation stays registered.
     */
    private record Declared(Instant lastHeartbeat, DetectionCause cause, String evidence,
                            @Nullable Incarnation irrefutable) {

        boolean holdsFor(RegisteredHost host) {
            return irrefutable != null ? irrefutable.equals(Incarnation.of(host))
                    : !host.lastHeartbeat().isAfter(lastHeartbeat);
        }
    }

    /** What tells one registration of a host from the next: its session and its instance. */
    private record Incarnation(@Nullable String session, @Nullable String instance) {

        static @Nullable Incarnation of(RegisteredHost host) {
            return host.session() == null && host.instance() == null ? null
                    : new Incarnation(host.session(), host.instance());
        }
    }
}
