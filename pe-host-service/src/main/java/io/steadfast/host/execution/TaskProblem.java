package io.steadfast.host.execution;

/**
 * Why one task of a deployment cannot run on this host.
 *
 * @param task the task id, {@code topology/operator#subtask}
 * @param field the field of the task spec at fault: {@code type}, {@code config.<name>} or {@code placement}
 * @param message what is wrong, the value seen and what to do
 */
public record TaskProblem(String task, String field, String message) {
}
