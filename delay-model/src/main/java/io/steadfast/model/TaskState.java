package io.steadfast.model;

/**
 * What a task holds that a recovery must restore or replay, as last measured before a failure.
 *
 * @param stateBytes the size of its keyed state in the latest completed checkpoint, which a recovery fetches
 * @param loggedRecords the records it has sent downstream since the latest completed checkpoint (its output log):
 *                      if it is recovered LOCALly it sends them again and its downstream tasks drop them as
 *                      duplicates; 0 for a sink
 */
public record TaskState(long stateBytes, long loggedRecords) {

    /** No state and nothing logged: a stateless task, or one just after a checkpoint. */
    public static final TaskState EMPTY = new TaskState(0, 0);

    public TaskState {
        Finite.atLeastZero("TaskState", "stateBytes", stateBytes);
        Finite.atLeastZero("TaskState", "loggedRecords", loggedRecords);
    }
}
