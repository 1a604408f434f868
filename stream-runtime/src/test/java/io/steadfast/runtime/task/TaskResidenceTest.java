package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.api.Event;
import io.steadfast.api.PeContext;
import io.steadfast.api.ProcessingElement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task measures how long its records stay in it, queueing included: records that wait behind a slow PE count
 * the wait, so the mean is the queue's, not the PE's time per record alone.
 */
@Timeout(30)
class TaskResidenceTest {

    private static final int RECORDS = 20;
    private static final long SERVICE_MS = 5;

    private StreamTask task;

    /** Takes {@value #SERVICE_MS} ms over each record. */
    private static final class SlowPe implements ProcessingElement<String, String> {

        @Override
        public void process(Event<String> event, PeContext<String> context) {
            try {
                Thread.sleep(SERVICE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @AfterEach
    void cancel() {
        if (task != null) {
            task.cancel(Duration.ofSeconds(5));
        }
    }

    @Test
    void recordsThatQueueBehindOthersCountTheirWaitInTheTasksResidenceTime() {
        OneInputTask probe = OneInputTask.start("slow", SlowPe::new);
        task = probe.task();

        for (int i = 0; i < RECORDS; i++) { // all arrive at once: the i-th leaves no sooner than (i+1) x 5 ms later
            task.deliver(probe.frame("r" + i));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> task.metrics().recordsIn() == RECORDS);

        double meanMillis = task.metrics().residenceNanos() / 1e6 / RECORDS;
        double busyMillis = task.metrics().busyNanos() / 1e6;
        double serviceOnlyMean = SERVICE_MS;
        double queueingMean = SERVICE_MS * (RECORDS + 1) / 2.0; // 52.5 ms: the mean of 5, 10, ..., 100 ms
        assertThat(busyMillis).as("busy time covers every record's processing").isGreaterThanOrEqualTo(
                (double) RECORDS * SERVICE_MS);
        assertThat(meanMillis).as("mean residence includes the queueing, beyond the %s ms of service alone",
                serviceOnlyMean).isGreaterThanOrEqualTo(queueingMean)
                .isLessThan(queueingMean + TimeUnit.SECONDS.toMillis(2));
    }
}
