package io.steadfast.host.snapshot;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Wraps a {@link SnapshotStore} in a Resilience4j retry (a few quick attempts) inside a circuit breaker, so that
 * with the store down calls fail fast with a reason instead of piling up, and resume once it answers again
 * (the breaker lets a few trial calls through after {@code openFor}). A missing snapshot (empty answer) is a
 * success. Thread-safe.
 */
public final class ResilientSnapshotStore implements SnapshotStore {

    private final SnapshotStore delegate;
    private final Retry retry;
    private final CircuitBreaker breaker;
    private final Duration openFor;

    public ResilientSnapshotStore(SnapshotStore delegate, int attempts, Duration retryWait, Duration openFor) {
        this.delegate = delegate;
        this.openFor = openFor;
        this.retry = Retry.of("snapshot-store", RetryConfig.custom().maxAttempts(attempts).waitDuration(retryWait)
                .retryExceptions(SnapshotStoreException.class).build());
        this.breaker = CircuitBreaker.of("snapshot-store", CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED).slidingWindowSize(10)
                .minimumNumberOfCalls(4).failureRateThreshold(50).waitDurationInOpenState(openFor)
                .permittedNumberOfCallsInHalfOpenState(2).automaticTransitionFromOpenToHalfOpenEnabled(false)
                .ignoreExceptions(CheckpointClosedException.class)
                .build());
    }

    public CircuitBreaker.State circuitState() {
        return breaker.getState();
    }

    @Override
    public void put(TaskId task, long checkpointId, TakenSnapshot snapshot) {
        call(() -> {
            delegate.put(task, checkpointId, snapshot);
            return null;
        });
    }

    @Override
    public void putAll(long checkpointId, Map<TaskId, TakenSnapshot> snapshots) {
        call(() -> {
            delegate.putAll(checkpointId, snapshots);
            return null;
        });
    }

    @Override
    public Optional<byte[]> get(TaskId task, long checkpointId) {
        return call(() -> delegate.get(task, checkpointId));
    }

    @Override
    public Map<TaskId, byte[]> getAll(List<TaskId> tasks, long checkpointId) {
        return call(() -> delegate.getAll(tasks, checkpointId));
    }

    private <T> T call(Supplier<T> call) {
        try {
            return CircuitBreaker.decorateSupplier(breaker, Retry.decorateSupplier(retry, call)).get();
        } catch (CallNotPermittedException e) {
            throw new SnapshotStoreException("The snapshot store failed repeatedly, so calls are refused for up to "
                    + openFor + " (circuit breaker open); processing goes on, checkpoints fail until it is back", e);
        }
    }
}
