package io.steadfast.host.execution;

import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Waits, with a timeout, for the answer of a task of this host to a state query, and names why one failed. */
final class StateQueries {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(5);

    private final HostRuntime runtime;

    StateQueries(HostRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * The answer of {@code task} to {@code query}.
     *
     * @throws StateQueryException if the task is not here, has no keyed state or does not answer in time
     */
    <T> T await(TaskId task, Supplier<CompletableFuture<T>> query) {
        if (runtime.task(task).isEmpty()) {
            throw new StateQueryException(StateQueryException.Reason.TASK_NOT_FOUND, "Task " + task
                    + " does not run on host " + runtime.id() + "; see GET /api/v1/tasks for the tasks here", null);
        }
        try {
            return query.get().get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ClassCastException) {
                throw new StateQueryException(StateQueryException.Reason.NOT_QUERYABLE, "Task " + task
                        + " has no keyed state (it is a source); query a keyed operator or sink instead", e.getCause());
            }
            throw new StateQueryException(StateQueryException.Reason.UNAVAILABLE, "Task " + task
                    + " could not answer the query: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new StateQueryException(StateQueryException.Reason.UNAVAILABLE, "Task " + task
                    + " did not answer within " + QUERY_TIMEOUT + "; it may be overloaded, check GET /api/v1/tasks", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StateQueryException(StateQueryException.Reason.UNAVAILABLE, "Interrupted while querying "
                    + task, e);
        }
    }
}
