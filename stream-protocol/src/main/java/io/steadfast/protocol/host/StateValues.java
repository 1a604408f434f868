package io.steadfast.protocol.host;

import io.steadfast.runtime.plan.TaskId;
import java.util.Map;

/**
 * A host's answer to a many-keys state query, sorted by key.
 *
 * @param task   the task queried
 * @param state  the state name
 * @param values value by key
 */
public record StateValues(TaskId task, String state, Map<String, Object> values) {
}
