package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * A processing-time timer fires after the input that reached the host before it was due, even when the task was too
 * busy to take that input in time: a vote's deadline must not pass over a ballot that waited in the vote task's own
 * queue. Input that arrived after the timer was due comes after it.
 */
@Timeout(30)
class ProcessingTimersAfterArrivedInputTest {

    private static final TaskId TASK = TaskId.parse("timers/probe#0");
    private static final ChannelId INPUT = new ChannelId(new TopologyId("timers"), 1, 0);
    private static final long DEADLINE_MS = 200;
    private static final long BUSY_MS = 700;

    /** What the probe saw, in order. */
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final AtomicLong deadline = new AtomicLong();
    private StreamTask task;

    /** Sets a deadline on its first input, then stays busy with it for longer than the deadline. */
    private final class DeadlineProbe implements ProcessingElement<String, String> {

        @Override
        public void process(Event<String> event, PeContext<String> context) {
            seen.add(event.value());
            if (event.value().equals("first")) {
                deadline.set(context.currentProcessingTime() + DEADLINE_MS);
                context.registerProcessingTimeTimer(deadline.get());
                sleep(BUSY_MS);
            }
        }

        @Override
        public void onProcessingTime(long timestamp, PeContext<String> context) {
            seen.add("deadline");
        }
    }

    private record ArrivingFrame(ChannelId channel, byte[] payload, int records, long arrivedMillis)
            implements InputFrame {

        ArrivingFrame(byte[] payload) {
            this(INPUT, payload, 1, System.currentTimeMillis());
        }

        @Override
        public int skip() {
            return 0;
        }

        @Override
        public void consumed() {
        }
    }

    @AfterEach
    void cancel() {
        if (task != null) {
            task.cancel(Duration.ofSeconds(5));
        }
    }

    @Test
    void aTimerWaitsForInputThatArrivedBeforeItWasDueAndPrecedesInputThatArrivedAfter() {
        OperatorRegistry registry = OperatorRegistry.of(List.of(new OperatorProvider() {
            @Override
            public List<OperatorType<?>> operatorTypes() {
                return List.of(OperatorType.processor("deadline-probe", NoConfig.class,
                        init -> new DeadlineProbe(), "test"));
            }
        }));
        TaskSpec spec = new TaskSpec(TASK, "deadline-probe", 1, JsonMapper.builder().build().createObjectNode(),
                List.of(new InputChannel(INPUT, TaskId.parse("timers/src#0"), 0)), List.of());
        task = new TaskFactory(registry, TaskSettings.defaults(), Clock.systemUTC()).create(spec, channel -> {
            throw new AssertionError("the probe has no output channel, asked for " + channel);
        });
        task.start();

        task.deliver(new ArrivingFrame(event(registry, "first")));
        await().atMost(Duration.ofSeconds(10)).until(() -> deadline.get() != 0);
        ArrivingFrame beforeDeadline = new ArrivingFrame(event(registry, "second"));
        task.deliver(beforeDeadline);
        await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > deadline.get() + 20);
        ArrivingFrame afterDeadline = new ArrivingFrame(event(registry, "third"));
        task.deliver(afterDeadline);

        assertThat(beforeDeadline.arrivedMillis()).as("the second input reached the task before its deadline")
                .isLessThan(deadline.get());
        assertThat(afterDeadline.arrivedMillis()).as("the third after it").isGreaterThan(deadline.get());
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 4);
        assertThat(seen).as("the busy task took the second input, which waited in its queue, before the deadline")
                .containsExactly("first", "second", "deadline", "third");
    }

    private static byte[] event(OperatorRegistry registry, String value) {
        RecordBatchWriter writer = new RecordBatchWriter(registry.codecs(), 256);
        writer.addEvent(Event.of("key", value, 1_000));
        return writer.drain();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
