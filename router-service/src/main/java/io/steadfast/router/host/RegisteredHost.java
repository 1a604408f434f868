package io.steadfast.router.host;

import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
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
 * @param controlUrl base URL of the host's REST API
 * @param dataEndpoint the host's data-plane endpoint
 * @param lastHeartbeat when it last registered or sent a heartbeat
 * @param tasks the task reports of the last heartbeat
 * @param previousHeartbeat the heartbeat before, or null
 * @param previousTasks the task reports of the heartbeat before (empty if none)
 * @param registeredAt when this registration was made
 * @param session the host process's session: a new one each time the host rejoins empty (after it fenced itself, or
 *                a restart); null from a host that names none
 */
public record RegisteredHost(HostId id, URI controlUrl, String dataEndpoint, Instant lastHeartbeat,
                             List<TaskReport> tasks, @Nullable Instant previousHeartbeat,
                             List<TaskReport> previousTasks, Instant registeredAt, @Nullable String session) {

    public RegisteredHost {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(controlUrl, "controlUrl");
        Objects.requireNonNull(dataEndpoint, "dataEndpoint");
        Objects.requireNonNull(lastHeartbeat, "lastHeartbeat");
        Objects.requireNonNull(registeredAt, "registeredAt");
        tasks = List.copyOf(tasks);
        previousTasks = List.copyOf(previousTasks);
    }

    /** A host that has just registered, naming no session, and reported no task yet. */
    public static RegisteredHost registered(HostId id, URI controlUrl, String dataEndpoint, Instant now) {
        return registered(id, controlUrl, dataEndpoint, null, now);
    }

    /** A host that has just registered with {@code session} and reported no task yet. */
    public static RegisteredHost registered(HostId id, URI controlUrl, String dataEndpoint, @Nullable String session,
                                            Instant now) {
        return new RegisteredHost(id, controlUrl, dataEndpoint, now, List.of(), null, List.of(), now, session);
    }

    /** This host after a heartbeat at {@code now}; the current reports become the previous ones. */
    public RegisteredHost withHeartbeat(Instant now, List<TaskReport> reports) {
        return new RegisteredHost(id, controlUrl, dataEndpoint, now, reports, lastHeartbeat, tasks, registeredAt,
                session);
    }

    public Optional<TaskReport> report(String task) {
        return tasks.stream().filter(report -> report.task().equals(task)).findFirst();
    }

    public Optional<TaskReport> previousReport(String task) {
        return previousTasks.stream().filter(report -> report.task().equals(task)).findFirst();
    }
}
