package io.steadfast.router.host;

import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A host as the router knows it: where to reach it and its two latest heartbeats (the previous one lets the
 * router compute rates). Immutable.
 *
 * @param id the host id
 * @param kind what it runs: vote tasks (VOTER) or every other task (PE)
 * @param controlUrl base URL of the host's REST API
 * @param dataEndpoint the host's data-plane endpoint
 * @param last its last registration or heartbeat
 * @param previous the heartbeat before, or null
 * @param registeredAt when this registration was made
 * @param session the host process's session: a new one each time the host rejoins empty (after it fenced itself, or
 *                a restart); null from a host that names none
 * @param instance what tells this incarnation of the host from an earlier one with the same id (on Kubernetes the
 *                 pod's uid: a StatefulSet recreates a deleted pod under the same name); null from a host that names
 *                 none
 */
public record RegisteredHost(HostId id, HostKind kind, URI controlUrl, String dataEndpoint, Heartbeat last,
                             @Nullable Heartbeat previous, Instant registeredAt, @Nullable String session,
                             @Nullable String instance) {

    /**
     * One heartbeat (or the registration) of a host.
     *
     * @param at when it arrived
     * @param tasks the task reports it carried
     */
    public record Heartbeat(Instant at, List<TaskReport> tasks) {

        public Heartbeat {
            Objects.requireNonNull(at, "at");
            tasks = List.copyOf(tasks);
        }
    }

    public RegisteredHost {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(controlUrl, "controlUrl");
        Objects.requireNonNull(dataEndpoint, "dataEndpoint");
        Objects.requireNonNull(last, "last");
        Objects.requireNonNull(registeredAt, "registeredAt");
    }

    /** When it last registered or sent a heartbeat. */
    public Instant lastHeartbeat() {
        return last.at();
    }

    /** The task reports of the last heartbeat. */
    public List<TaskReport> tasks() {
        return last.tasks();
    }

    /** The heartbeat before, or null. */
    public @Nullable Instant previousHeartbeat() {
        return previous == null ? null : previous.at();
    }

    /** The task reports of the heartbeat before (empty if none). */
    public List<TaskReport> previousTasks() {
        return previous == null ? List.of() : previous.tasks();
    }

    /** A PE host that has just registered, naming no session, and reported no task yet. */
    public static RegisteredHost registered(HostId id, URI controlUrl, String dataEndpoint, Instant now) {
        return registered(id, HostKind.PE, controlUrl, dataEndpoint, null, now);
    }

    /** A host of {@code kind} that has just registered with {@code session} and reported no task yet. */
    public static RegisteredHost registered(HostId id, HostKind kind, URI controlUrl, String dataEndpoint,
                                            @Nullable String session, Instant now) {
        return registered(id, kind, controlUrl, dataEndpoint, session, null, now);
    }

    /** A host of {@code kind}, incarnation {@code instance}, that has just registered and reported no task yet. */
    public static RegisteredHost registered(HostId id, HostKind kind, URI controlUrl, String dataEndpoint,
                                            @Nullable String session, @Nullable String instance, Instant now) {
        return new RegisteredHost(id, kind, controlUrl, dataEndpoint, new Heartbeat(now, List.of()), null, now,
                session, instance);
    }

    /** This host after a heartbeat at {@code now}; the current reports become the previous ones. */
    public RegisteredHost withHeartbeat(Instant now, List<TaskReport> reports) {
        return new RegisteredHost(id, kind, controlUrl, dataEndpoint, new Heartbeat(now, reports), last,
                registeredAt, session, instance);
    }

    public Optional<TaskReport> report(String task) {
        return tasks().stream().filter(report -> report.task().equals(task)).findFirst();
    }

    public Optional<TaskReport> previousReport(String task) {
        return previousTasks().stream().filter(report -> report.task().equals(task)).findFirst();
    }
}
