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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a host is LIVE or DEAD from the time of its last heartbeat: DEAD once no heartbeat arrived
 * for longer than the timeout. The status is computed on read from the injected clock, so it is never stale;
 * {@link #sweep()} (called periodically) logs each LIVE/DEAD transition once, records every LIVE to DEAD
 * transition as a {@link DetectedFailure} and tells the listeners (on the sweeping thread: hand off and return).
 * Recovery is not decided here. Thread-safe.
 */
public final class HeartbeatFailureDetector {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatFailureDetector.class);

    private final HostRegistry hosts;
    private final Clock clock;
    private final Duration timeout;
    private final Map<HostId, HostStatus> lastLogged = new ConcurrentHashMap<>();
    private final List<DetectedFailure> failures = new CopyOnWriteArrayList<>();
    private final List<Consumer<DetectedFailure>> listeners = new CopyOnWriteArrayList<>();

    private final Duration startupGrace;

    /** Without a startup grace: new hosts are judged by the timeout alone. */
    public HeartbeatFailureDetector(HostRegistry hosts, Clock clock, Duration timeout) {
        this(hosts, clock, timeout, Duration.ZERO);
    }

    public HeartbeatFailureDetector(HostRegistry hosts, Clock clock, Duration timeout, Duration startupGrace) {
        this.startupGrace = startupGrace;
        this.hosts = hosts;
        this.clock = clock;
        this.timeout = timeout;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * DEAD once a host has been silent for longer than the timeout. A host in its first startup grace after
     * registering may be silent for the whole grace instead: a JVM that has just
     * started is busy compiling and loading classes, and on a loaded machine its first heartbeats come late;
     * declaring it dead then would send every topology into a needless global recovery.
     */
    public HostStatus statusOf(RegisteredHost host) {
        Instant now = clock.instant();
        boolean starting = now.isBefore(host.registeredAt().plus(startupGrace));
        Instant deadline = host.lastHeartbeat().plus(starting && startupGrace.compareTo(timeout) > 0
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

    /** Logs every host whose status changed since the last sweep and records each that went DEAD. */
    public void sweep() {
        for (RegisteredHost host : hosts.all()) {
            HostStatus status = statusOf(host);
            HostStatus before = lastLogged.put(host.id(), status);
            if (status == before) {
                continue;
            }
            if (status == HostStatus.DEAD) {
                DetectedFailure failure = new DetectedFailure(host.id(), host.lastHeartbeat(), clock.instant());
                failures.add(failure);
                LOG.warn("Host {} is DEAD: no heartbeat since {} (timeout {}); recovering its topologies. "
                        + "Check the host's /actuator/health and its log", host.id(), host.lastHeartbeat(), timeout);
                for (Consumer<DetectedFailure> listener : listeners) {
                    try {
                        listener.accept(failure);
                    } catch (RuntimeException e) {
                        LOG.error("A failure listener failed on {}", failure, e);
                    }
                }
            } else if (before != null) {
                LOG.info("Host {} is LIVE again (heartbeat at {}) after it was declared DEAD: it takes new tasks, and"
                        + " its heartbeat answers tell it to cancel the tasks recovered elsewhere meanwhile", host.id(),
                        host.lastHeartbeat());
            }
        }
    }
}
