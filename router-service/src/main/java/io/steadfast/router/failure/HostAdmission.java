package io.steadfast.router.failure;

import io.steadfast.router.host.HostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which registrations and heartbeats the router takes: the fencing of host sessions. A host registers with
 * a session, and its heartbeats name it. Once the router has declared a host DEAD (its heartbeat timeout, or other
 * evidence), that session is over for good: a heartbeat or registration that names it is {@link Fenced refused}, so
 * a host that was only frozen, partitioned or slow cannot come back with its old tasks. It must stop them and
 * register again with a new session. A host that registers with a new session while its old one is still LIVE has
 * dropped its old tasks (it fenced itself when its lease lapsed, or its process restarted): the old session is
 * declared DEAD at once ({@link DetectionCause#HOST_REJOINED}). A new session is admitted only once the router has
 * handled the failure of the old one ({@code failureBeingHandled}): until then the registration is
 * {@link RejoinPending}, so the rejoined host is neither given new tasks nor taken for the holder of its old ones
 * while they are being recovered elsewhere.
 *
 * <p>A registration that names the session the router holds (the router forgot nothing; the host only lost an
 * answer) refreshes it, unless that session is over. The router learns nothing of sessions it did not see: after a
 * restart it admits whatever session a host names, as before. Serialised on this object, with the detector's sweep
 * deciding DEAD on its own thread: a heartbeat is taken only if the host is LIVE when it arrives.
 */
public final class HostAdmission {

    private static final Logger LOG = LoggerFactory.getLogger(HostAdmission.class);

    private final HostRegistry hosts;
    private final HeartbeatFailureDetector detector;
    private final Clock clock;
    private final Predicate<HostId> failureBeingHandled;
    /** Sessions the router declared over, by host: never taken again. */
    private final Map<HostId, Ended> ended = new ConcurrentHashMap<>();
    /** Whether an incarnation of a host is known to be gone for good (its pod deleted): never taken again. */
    private volatile BiPredicate<HostId, String> retiredInstances = (id, instance) -> false;

    /**
     * @param failureBeingHandled whether a detected failure of the host is still queued or being recovered
     */
    public HostAdmission(HostRegistry hosts, HeartbeatFailureDetector detector, Clock clock,
                         Predicate<HostId> failureBeingHandled) {
        this.hosts = hosts;
        this.detector = detector;
        this.clock = clock;
        this.failureBeingHandled = failureBeingHandled;
        detector.onFailure(failure -> hosts.find(failure.host()).ifPresent(host ->
                ended.put(host.id(), new Ended(host.session(), failure.detectedAt(), failure.cause().name()))));
    }

    /** What became of a registration or a heartbeat. */
    public sealed interface Verdict permits Admitted, Fenced, RejoinPending, Unknown {
    }

    /** Taken: the host as the router now knows it. */
    public record Admitted(RegisteredHost host) implements Verdict {
    }

    /**
     * Refused for good: the session is over. The host must stop every task it runs and register with a new session.
     *
     * @param reason why, for the host's log and the problem detail
     */
    public record Fenced(String reason) implements Verdict {
    }

    /**
     * Refused for now: the host's earlier session failed and its tasks are still being recovered; register again
     * shortly.
     */
    public record RejoinPending(String reason) implements Verdict {
    }

    /** The host is not registered (the router restarted): it must register. */
    public record Unknown() implements Verdict {
    }

    /**
     * Refuses ({@link RejoinPending}) from now on the registrations of host incarnations that {@code retired} names gone for good (on
     * Kubernetes a pod that was deleted: its process may still run for its termination grace, and must not come back
     * as a standby meanwhile).
     */
    public void refuseRetiredInstances(BiPredicate<HostId, String> retired) {
        retiredInstances = retired;
    }

    /** A heartbeat from {@code session} of host {@code id}. */
    public synchronized Verdict heartbeat(HostId id, @Nullable String session, List<TaskReport> tasks) {
        Optional<RegisteredHost> current = hosts.find(id);
        if (current.isEmpty()) {
            return new Unknown();
        }
        Optional<Fenced> over = over(current.get(), session);
        if (over.isPresent()) {
            return over.get();
        }
        return hosts.heartbeat(id, tasks, clock.instant()).<Verdict>map(Admitted::new).orElseGet(Unknown::new);
    }

    /** A registration of host {@code id}, of {@code kind}, with {@code session}, naming no instance. */
    public Verdict register(HostId id, HostKind kind, URI controlUrl, String dataEndpoint, @Nullable String session) {
        return register(id, kind, controlUrl, dataEndpoint, session, null);
    }

    /**
     * A registration of host {@code id}, of {@code kind}, with {@code session}, from incarnation {@code instance} (the
     * pod uid on Kubernetes, recorded so that pod events are matched to the process that registered).
     */
    public synchronized Verdict register(HostId id, HostKind kind, URI controlUrl, String dataEndpoint,
                                         @Nullable String session, @Nullable String instance) {
        if (instance != null && retiredInstances.test(id, instance)) {
            // not Fenced: a host fences itself and registers again at once, in a loop, while its process ends; a
            // pending rejoin is retried at the heartbeat interval
            return new RejoinPending("Host " + id + " runs in instance " + instance + ", which is gone for good (its"
                    + " pod was deleted): this process is not admitted again; its replacement registers as a new"
                    + " instance");
        }
        Optional<RegisteredHost> current = hosts.find(id);
        if (current.isPresent() && Objects.equals(current.get().session(), session)) {
            Optional<Fenced> over = over(current.get(), session);
            if (over.isPresent()) {
                return over.get();
            }
        } else if (current.isPresent()) {
            if (!ended.containsKey(id) && detector.statusOf(current.get()) == HostStatus.LIVE) {
                detector.declareDead(id, current.get().lastHeartbeat(), DetectionCause.HOST_REJOINED, "host " + id
                        + " registered again with a new session (" + session + " after " + current.get().session()
                        + "): it fenced itself or restarted, and the tasks of its earlier session are gone");
            }
            ended.putIfAbsent(id, new Ended(current.get().session(), clock.instant(), "HOST_REJOINED"));
            if (failureBeingHandled.test(id)) {
                return new RejoinPending("Host " + id + "'s earlier session failed and its tasks are being recovered"
                        + " elsewhere; register again shortly");
            }
        }
        ended.remove(id);
        RegisteredHost registered = hosts.register(id, kind, controlUrl, dataEndpoint, session, instance,
                clock.instant());
        if (current.isPresent() && !Objects.equals(current.get().session(), session)) {
            LOG.info("Host {} rejoined with a new session {} (was {}): it runs nothing and takes new tasks", id, session,
                    current.get().session());
        }
        return new Admitted(registered);
    }

    /** Whether the session the host names is over: it is not the one registered, or the host is DEAD. */
    private Optional<Fenced> over(RegisteredHost host, @Nullable String session) {
        if (!Objects.equals(host.session(), session)) {
            return Optional.of(new Fenced("Host " + host.id() + " is registered with session " + host.session()
                    + ", not " + session + "; stop every task of the old session and register again"));
        }
        Ended end = ended.get(host.id());
        if (end == null && detector.statusOf(host) == HostStatus.DEAD) {
            end = new Ended(session, clock.instant(), "HEARTBEAT_TIMEOUT");
            ended.put(host.id(), end);
        }
        if (end != null && Objects.equals(end.session(), session)) {
            return Optional.of(new Fenced("Host " + host.id() + " (session " + session + ") was declared DEAD at "
                    + end.at() + " (" + end.cause() + ", last heartbeat " + host.lastHeartbeat() + ") and its tasks"
                    + " are recovered elsewhere; stop every task and register again with a new session"));
        }
        return Optional.empty();
    }

    private record Ended(@Nullable String session, Instant at, String cause) {
    }
}
