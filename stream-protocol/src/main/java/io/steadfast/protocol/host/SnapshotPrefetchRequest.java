package io.steadfast.protocol.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.steadfast.protocol.checkpoint.CompletedCheckpointId;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Body of a host's {@code POST .../snapshot-prefetches}: fetch ahead what a recovery of the tasks there would need.
 *
 * @param checkpointId the completed checkpoint whose snapshots to fetch
 * @param tasks        the tasks whose snapshots to fetch
 * @param peers        base URLs of the live hosts to fetch the tasks' logged decisions from ahead as well (optional;
 *                     the recovery then takes them once the peers confirm they hold no more)
 * @param placement    where every task would run after the recovery, these on the host (optional; with it the tasks
 *                     are prepared whole ahead, for a recovery with that placement)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SnapshotPrefetchRequest(@NotNull @CompletedCheckpointId CheckpointId checkpointId,
                                      @NotEmpty List<TaskId> tasks, @Nullable List<URI> peers,
                                      @Valid @Nullable Placement placement) {
}
