package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.TaskId;
import org.jspecify.annotations.Nullable;

/**
 * A host's answer to a query of a task state (state of the whole task, not of a key, such as a vote task's records
 * of its versions).
 *
 * @param task  the task queried
 * @param state the state name
 * @param value its value, or null if the task holds none
 */
public record TaskStateValue(TaskId task, String state, @Nullable Object value) {
}
