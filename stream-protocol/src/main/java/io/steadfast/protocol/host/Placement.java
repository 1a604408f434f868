package io.steadfast.protocol.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import jakarta.validation.constraints.NotNull;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Where every task of a topology runs, in the form the router sends it to hosts.
 *
 * @param hosts        host of each task
 * @param endpoints    data-plane endpoint of each host
 * @param incarnations incarnation of each task recovered at least once (left out while none was; 0 for the others)
 */
public record Placement(@NotNull Map<TaskId, HostId> hosts, @NotNull Map<HostId, String> endpoints,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) @Nullable Map<TaskId, Integer> incarnations) {

    /** The body form of {@code placement}, keys sorted. */
    public static Placement of(TaskPlacement placement) {
        return new Placement(new TreeMap<>(placement.hosts()), new TreeMap<>(placement.endpoints()),
                new TreeMap<>(placement.incarnations()));
    }

    /** @throws IllegalArgumentException if a host has no endpoint or an incarnation is negative */
    public TaskPlacement toTaskPlacement() {
        return new TaskPlacement(hosts, endpoints, incarnations == null ? Map.of() : incarnations);
    }
}
