package io.steadfast.router.topology;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A deployed topology with the latest metrics its hosts reported. The members of its groups are written flat in its
 * JSON form.
 *
 * @param id the topology id
 * @param status RUNNING, FINISHED or FAILED, derived from the task statuses
 * @param milestones when it was deployed, and how far its checkpoints and recoveries got since
 * @param spec the spec as submitted
 * @param tasks every task, in plan order
 * @param operators every operator, in plan order
 */
public record TopologyDetail(String id, String status, @JsonUnwrapped Milestones milestones, JsonNode spec,
                             List<TaskState> tasks, List<OperatorRate> operators) {

    /**
     * How far a deployed topology got.
     *
     * @param deployedAt when it was deployed
     * @param epoch its deployment epoch: 0, plus one per recovery
     * @param lastCompletedCheckpoint the latest checkpoint this router completed for it, or null
     * @param recoveries how many recoveries were started for it
     */
    public record Milestones(Instant deployedAt, int epoch, @Nullable Long lastCompletedCheckpoint, long recoveries) {
    }

    /**
     * One task as its host last reported it.
     *
     * @param task the task id
     * @param host the host it runs on
     * @param hostStatus LIVE or DEAD, or UNREGISTERED if the host is gone
     * @param status the task status, or PENDING before the host reported it
     * @param traffic what it took in and emitted, as its host last reported
     * @param failure the failure text of a FAILED task, or null
     */
    public record TaskState(String task, String host, String hostStatus, String status,
                            @JsonUnwrapped Traffic traffic, @Nullable String failure) {
    }

    /**
     * What a task took in and emitted.
     *
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param recordsInPerSecond the input rate the host last measured
     * @param recordsOutPerSecond the output rate the host last measured
     * @param queuedFrames input frames waiting in the task's mailbox
     */
    public record Traffic(long recordsIn, long recordsOut, double recordsInPerSecond, double recordsOutPerSecond,
                          int queuedFrames) {

        static final Traffic NONE = new Traffic(0, 0, 0.0, 0.0, 0);
    }

    /**
     * Totals of one operator over its tasks.
     *
     * @param operator the operator id
     * @param recordsIn records taken in
     * @param recordsOut events emitted
     * @param eventsPerSecond events emitted (taken in, for sinks) per second between the last two heartbeats
     */
    public record OperatorRate(String operator, long recordsIn, long recordsOut, double eventsPerSecond) {
    }
}
