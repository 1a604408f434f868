package io.steadfast.dashboard.overview;

import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologySummary;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Everything the page shows, read from the router at one moment: {@code GET /api/v1/overview} and each
 * {@code overview} event of {@code GET /api/v1/events}. The page's own contract (static/app.js reads it), built from
 * the router's answers: it keeps what the page shows and leaves out the rest (a topology's spec, the hosts' task
 * metrics), which would be pushed to every open page every second.
 *
 * @param routerUrl the router it was read from
 * @param routerReachable false if the router could not be read; then {@code error} says why and the lists are empty
 * @param fetchedAt when it was read (the dashboard's clock); heartbeat ages are relative to it
 * @param error why the router could not be read, or null
 * @param hosts every host the router knows
 * @param topologies every deployed topology, in the router's order
 */
public record Overview(URI routerUrl, boolean routerReachable, Instant fetchedAt, @Nullable String error,
                       List<HostOverview> hosts, List<TopologyOverview> topologies) {

    static Overview unreachable(URI routerUrl, Instant fetchedAt, String error) {
        return new Overview(routerUrl, false, fetchedAt, error, List.of(), List.of());
    }

    /**
     * A host as the router lists it.
     *
     * @param hostId the host id
     * @param kind PE (runs every task but the vote tasks) or VOTER (a voter-service: runs only vote tasks)
     * @param controlUrl base URL of the host's REST API
     * @param dataEndpoint the host's data-plane endpoint
     * @param status LIVE or DEAD
     * @param lastHeartbeat when the router last heard from it, or null if never
     * @param tasks the tasks it reported in that heartbeat
     */
    public record HostOverview(HostId hostId, HostKind kind, URI controlUrl, String dataEndpoint, String status,
                               @Nullable Instant lastHeartbeat, List<HostTask> tasks) {

        static HostOverview of(HostView host) {
            return new HostOverview(host.hostId(), host.kind(), host.controlUrl(), host.dataEndpoint(), host.status(),
                    host.lastHeartbeat(), host.tasks().stream().map(HostTask::of).toList());
        }
    }

    /**
     * One task in a host's heartbeat.
     *
     * @param task the task id, as the host reported it
     * @param status its lifecycle state, or null if the host reported none
     */
    public record HostTask(String task, @Nullable String status) {

        static HostTask of(TaskReport report) {
            return new HostTask(report.task(), report.status() == null ? null : report.status().name());
        }
    }

    /**
     * One topology with its operators and tasks.
     *
     * @param id the topology id
     * @param status RUNNING, FINISHED or FAILED
     * @param deployedAt when it was deployed
     * @param operators per-operator totals and rates, in plan order; empty if {@code error} is set
     * @param tasks every task, in plan order; empty if {@code error} is set
     * @param error why its detail could not be read (the list entry was), or null
     */
    public record TopologyOverview(TopologyId id, String status, @Nullable Instant deployedAt,
                                   List<OperatorOverview> operators, List<TaskOverview> tasks,
                                   @Nullable String error) {

        static TopologyOverview of(TopologyDetail detail) {
            return new TopologyOverview(detail.id(), detail.status(), detail.milestones().deployedAt(),
                    detail.operators().stream().map(OperatorOverview::of).toList(),
                    detail.tasks().stream().map(TaskOverview::of).toList(), null);
        }

        /** A topology the router listed but whose detail it did not give, for {@code error}. */
        static TopologyOverview unreadable(TopologySummary summary, String error) {
            return new TopologyOverview(summary.id(), summary.status(), summary.deployedAt(), List.of(), List.of(),
                    error);
        }
    }

    /**
     * Totals of one operator over its tasks.
     *
     * @param operator the operator id
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param eventsPerSecond events per second between the router's last two heartbeats
     * @param latencyMillis the mean time a record spends in the operator (queueing and processing), or null if none
     *                      was taken in lately
     * @param outputWaitMillis the mean time its output then waited in frames to leave, or null if it sent none
     *                         lately (a sink)
     */
    public record OperatorOverview(OperatorId operator, long recordsIn, long recordsOut, double eventsPerSecond,
                                   @Nullable Double latencyMillis, @Nullable Double outputWaitMillis) {

        static OperatorOverview of(TopologyDetail.OperatorRate rate) {
            return new OperatorOverview(rate.operator(), rate.recordsIn(), rate.recordsOut(), rate.eventsPerSecond(),
                    rate.latencyMillis(), rate.outputWaitMillis());
        }
    }

    /**
     * One task as its host last reported it.
     *
     * @param task the task id
     * @param host the host it runs on
     * @param hostStatus LIVE, DEAD or UNREGISTERED
     * @param status the task status, or PENDING before the host reported it
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param failure the failure text of a FAILED task, or null
     */
    public record TaskOverview(TaskId task, HostId host, String hostStatus, String status, long recordsIn,
                               long recordsOut, @Nullable String failure) {

        static TaskOverview of(TopologyDetail.TaskState task) {
            return new TaskOverview(task.task(), task.host(), task.hostStatus(), task.status(), task.recordsIn(),
                    task.recordsOut(), task.failure());
        }
    }
}
