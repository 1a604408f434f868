package io.steadfast.runtime.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Comparator;
import java.util.Objects;

/** One parallel instance of an operator: {@code topology/operator#subtask}. */
public record TaskId(TopologyId topology, OperatorId operator, int subtask) implements Comparable<TaskId> {

    private static final Comparator<TaskId> ORDER = Comparator.comparing(TaskId::topology)
            .thenComparing(TaskId::operator)
            .thenComparingInt(TaskId::subtask);

    public TaskId {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(operator, "operator");
        if (subtask < 0) {
            throw new IllegalArgumentException("subtask must be >= 0, was " + subtask);
        }
    }

    /** Parses the {@link #toString()} form {@code topology/operator#subtask}, which is also the JSON form. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static TaskId parse(String text) {
        int slash = text.indexOf('/');
        int hash = text.lastIndexOf('#');
        if (slash <= 0 || hash <= slash + 1 || hash == text.length() - 1) {
            throw new IllegalArgumentException("Task id '" + text + "' is not of the form topology/operator#subtask");
        }
        int subtask;
        try {
            subtask = Integer.parseInt(text.substring(hash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Task id '" + text + "' has a non-numeric subtask index");
        }
        return new TaskId(new TopologyId(text.substring(0, slash)), new OperatorId(text.substring(slash + 1, hash)), subtask);
    }

    @Override
    public int compareTo(TaskId other) {
        return ORDER.compare(this, other);
    }

    @JsonValue
    @Override
    public String toString() {
        return topology + "/" + operator + "#" + subtask;
    }
}
