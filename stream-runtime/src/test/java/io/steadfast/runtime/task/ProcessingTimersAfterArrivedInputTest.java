package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A processing-time timer fires after the input that reached the host before it was due, even when the task was too
 * busy to take that input in time: a vote's deadline must not pass over a ballot that waited in the vote task's own
 * queue. Input that arrived after the timer was due comes after it.
 */
@Timeout(30)
class ProcessingTimersAfterArrivedInputTest {

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

    @AfterEach
    void cancel() {
        if (task != null) {
            task.cancel(Duration.ofSeconds(5));
        }
    }

    @Test
    void aTimerWaitsForInputThatArrivedBeforeItWasDueAndPrecedesInputThatArrivedAfter() {
        OneInputTask probe = OneInputTask.start("deadline-probe", DeadlineProbe::new);
        task = probe.task();

        task.deliver(probe.frame("first"));
        await().atMost(Duration.ofSeconds(10)).until(() -> deadline.get() != 0);
        OneInputTask.ArrivingFrame beforeDeadline = probe.frame("second");
        task.deliver(beforeDeadline);
        await().atMost(Duration.ofSeconds(10)).until(() -> System.currentTimeMillis() > deadline.get() + 20);
        OneInputTask.ArrivingFrame afterDeadline = probe.frame("third");
        task.deliver(afterDeadline);

        assertThat(beforeDeadline.arrivedMillis()).as("the second input reached the task before its deadline")
                .isLessThan(deadline.get());
        assertThat(afterDeadline.arrivedMillis()).as("the third after it").isGreaterThan(deadline.get());
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 4);
        assertThat(seen).as("the busy task took the second input, which waited in its queue, before the deadline")
                .containsExactly("first", "second", "deadline", "third");
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
