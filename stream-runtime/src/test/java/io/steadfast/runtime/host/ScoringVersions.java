package io.steadfast.runtime.host;

import io.steadfast.api.Event;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Versions of a scoring PE for the voting tests, written differently: {@code score-formula} computes it directly,
 * {@code score-loop} by repeated addition; {@code score-wrong} is wrong for about a tenth of the inputs (chosen by
 * their event time, so a replay is wrong on the same ones); {@code score-stall} sleeps once per JVM at its 500th
 * input of each subtask.
 */
final class ScoringVersions implements OperatorProvider {

    static final long STALL_MILLIS = 6_000;
    private static final ConcurrentHashMap<String, AtomicLong> SEEN = new ConcurrentHashMap<>();

    static long score(long value) {
        return (value * value * 31 + 7) % 1_000_003;
    }

    static boolean wrongFor(long eventTime) {
        return Long.remainderUnsigned(eventTime * 0x9E3779B97F4A7C15L >>> 20, 10) == 0;
    }

    @Override
    public List<OperatorType<?>> operatorTypes() {
        return List.of(
                OperatorType.processor("score-formula", NoConfig.class,
                        init -> (Event<Long> event, io.steadfast.api.PeContext<Long> context) ->
                                context.emit(score(event.value())), "test").withSharedInstance(),
                OperatorType.processor("score-loop", NoConfig.class,
                        init -> (Event<Long> event, io.steadfast.api.PeContext<Long> context) -> {
                            long square = 0;
                            for (long i = 0; i < event.value(); i++) {
                                square += event.value();
                            }
                            context.emit((square * 31 + 7) % 1_000_003);
                        }, "test").withSharedInstance(),
                OperatorType.processor("score-wrong", NoConfig.class,
                        init -> (Event<Long> event, io.steadfast.api.PeContext<Long> context) ->
                                context.emit(score(event.value()) + (wrongFor(event.eventTime()) ? 1 : 0)), "test")
                        .withSharedInstance(),
                OperatorType.processor("score-stall", NoConfig.class,
                        init -> {
                            String task = init.operator().operatorId() + "#" + init.operator().subtask();
                            return (Event<Long> event, io.steadfast.api.PeContext<Long> context) -> {
                                if (SEEN.computeIfAbsent(task, t -> new AtomicLong()).incrementAndGet() == 500) {
                                    sleep();
                                }
                                context.emit(score(event.value()));
                            };
                        }, "test").withSharedInstance());
    }

    private static void sleep() {
        try {
            Thread.sleep(STALL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
