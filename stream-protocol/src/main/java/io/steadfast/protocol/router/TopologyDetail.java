package io.steadfast.protocol.router;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A deployed topology with the latest metrics its hosts reported, {@code GET /api/v1/topologies/{id}}. The members
 * of its groups ({@link Milestones}, a task's {@link Traffic}) are written flat in its JSON form.
 *
 * @param id         the topology id
 * @param status     RUNNING, {@value #FINISHED} or {@value #FAILED}, derived from the task statuses
 * @param milestones when it was deployed, and how far its checkpoints and recoveries got since
 * @param spec       the spec as submitted
 * @param tasks      every task, in plan order
 * @param operators  every operator, in plan order
 * @param warnings   what its current placement could not do as it should, for people (e.g. versions of an N-version
 *                   operator that share a host for want of hosts); empty if nothing
 */
public record TopologyDetail(TopologyId id, String status, @JsonUnwrapped Milestones milestones, JsonNode spec,
                             List<TaskState> tasks, List<OperatorRate> operators, List<String> warnings) {

    /** The status of a topology or task that finished. */
    public static final String FINISHED = "FINISHED";
    /** The status of a topology one of whose tasks failed, and of that task. */
    public static final String FAILED = "FAILED";

    public TopologyDetail {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        operators = operators == null ? List.of() : List.copyOf(operators);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** Whether it has tasks and every one of them FINISHED. */
    public boolean allTasksFinished() {
        return !tasks.isEmpty() && tasks.stream().allMatch(TaskState::isFinished);
    }

    public boolean anyTaskFailed() {
        return tasks.stream().anyMatch(TaskState::isFailed);
    }

    /**
     * How far a deployed topology got.
     *
     * @param deployedAt              when it was deployed
     * @param epoch                   its deployment epoch: 0, plus one per global recovery
     * @param lastCompletedCheckpoint the latest checkpoint this router completed for it, or null
     * @param recoveries              how many recoveries were started for it
     */
    public record Milestones(Instant deployedAt, int epoch, @Nullable CheckpointId lastCompletedCheckpoint,
                             long recoveries) {
    }

    /**
     * One task as its host last reported it.
     *
     * @param task       the task id
     * @param host       the host the router placed it on
     * @param hostStatus LIVE or DEAD, or UNREGISTERED if the host is gone
     * @param status     the task status, or PENDING before the host reported it
     * @param traffic    what it took in and emitted, as its host last reported
     * @param failure    the failure text of a FAILED task, or null
     */
    @JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE) // its isX() queries are no JSON members
    public record TaskState(TaskId task, HostId host, String hostStatus, String status,
                            @JsonUnwrapped Traffic traffic, @Nullable String failure) {

        public boolean isFinished() {
            return FINISHED.equals(status);
        }

        public boolean isFailed() {
            return FAILED.equals(status);
        }

        public long recordsIn() {
            return traffic.recordsIn();
        }

        public long recordsOut() {
            return traffic.recordsOut();
        }
    }

    /**
     * What a task took in and emitted.
     *
     * @param recordsIn           records taken in
     * @param recordsOut          events emitted
     * @param recordsInPerSecond  the input rate the host last measured
     * @param recordsOutPerSecond the output rate the host last measured
     * @param queuedFrames        input frames waiting in the task's mailbox
     * @param latencyMillis       the mean time the records it took in over the host's last window spent in it
     *                            (queueing and processing), or null if it took none
     * @param busyFraction        the share of that window its thread spent processing, 0 to 1
     * @param outputWaitMillis    the mean time the records it sent over that window waited in output frames before
     *                            they left (batching: a linger, or a frame filling up), or null if it sent none
     */
    public record Traffic(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond,
                          int queuedFrames, @Nullable Double latencyMillis, double busyFraction,
                          @Nullable Double outputWaitMillis) {

        /** Of a task its host has not reported yet. */
        public static final Traffic NONE = new Traffic(0, 0, 0.0, 0.0, 0);

        /** Counts, rates and queue, with no timings. */
        public Traffic(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond,
                       int queuedFrames) {
            this(recordsIn, recordsOut, recordsInPerSecond, recordsOutPerSecond, queuedFrames, null, 0, null);
        }
    }

    /**
     * Totals of one operator over its tasks.
     *
     * @param operator        the operator id
     * @param recordsIn       records taken in
     * @param recordsOut      events emitted
     * @param eventsPerSecond events emitted (taken in, for sinks) per second between the last two heartbeats
     * @param latencyMillis    the mean time a record spends in the operator (queueing and processing), over its
     *                         tasks' last windows weighted by their input rates; null if none took records in
     * @param outputWaitMillis the mean time the records the operator sent waited in output frames before they left
     *                         (batching), over its tasks' last windows weighted by their output rates; null if none
     *                         sent records (a sink) or its hosts do not measure it
     */
    public record OperatorRate(OperatorId operator, long recordsIn, long recordsOut, double eventsPerSecond,
                               @Nullable Double latencyMillis, @Nullable Double outputWaitMillis) {

        /** Totals and rate, with no timings. */
        public OperatorRate(OperatorId operator, long recordsIn, long recordsOut, double eventsPerSecond) {
            this(operator, recordsIn, recordsOut, eventsPerSecond, null, null);
        }
    }
}
