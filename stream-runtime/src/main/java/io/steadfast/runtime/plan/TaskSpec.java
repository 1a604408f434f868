package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * What a host needs to run one task: the operator's type and config and the task's channels.
 *
 * @param id the task
 * @param type the operator type name
 * @param parallelism the parallelism of the task's operator (how many sibling subtasks there are)
 * @param config the operator's config, a JSON object; returned as a copy
 * @param inputs the channels it reads, ordered by input index, then upstream subtask; empty for a source
 * @param outputs one edge per downstream operator, in plan order; empty for a sink
 */
@JsonAutoDetect(isGetterVisibility = JsonAutoDetect.Visibility.NONE) // isVote() is a query, no JSON member
public record TaskSpec(TaskId id, String type, int parallelism, JsonNode config, List<InputChannel> inputs,
                       List<OutputEdge> outputs) {

    public TaskSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        if (parallelism < 1 || id.subtask() >= parallelism) {
            throw new IllegalArgumentException("task " + id + " does not fit parallelism " + parallelism);
        }
        config = Objects.requireNonNull(config, "config").deepCopy();
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    @Override
    public JsonNode config() {
        return config.deepCopy();
    }

    /** Whether this task votes on the outputs of the versions of an N-version operator. */
    public boolean isVote() {
        return NVersionExpansion.VOTE_TYPE.equals(type);
    }

    /** The kind of host this task runs on: a voter for a vote task, a PE host for any other. */
    public HostKind hostKind() {
        return isVote() ? HostKind.VOTER : HostKind.PE;
    }
}
