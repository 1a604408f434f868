package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.api.Event;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

/**
 * A frame that passed the data plane's checksum but cannot be decoded was encoded so by its sender: a resend would
 * carry the same bytes. The task fails, naming itself, the channel and the records, and never acknowledges it
 * (which would release the sender's copy and lose the records silently).
 */
@Timeout(30)
class UndecodableFrameTest {

    private static final TaskId TASK = TaskId.parse("undecodable/sink#0");
    private static final ChannelId INPUT = new ChannelId(new TopologyId("undecodable"), 3, 1);

    private final OperatorRegistry registry = OperatorRegistry.of(List.of());
    private StreamTask task;

    /** An input frame that counts its acknowledgements. */
    private record CountingFrame(ChannelId channel, byte[] payload, int records, AtomicInteger acknowledged)
            implements InputFrame {

        CountingFrame(byte[] payload, int records) {
            this(INPUT, payload, records, new AtomicInteger());
        }

        @Override
        public int skip() {
            return 0;
        }

        @Override
        public void consumed() {
            acknowledged.incrementAndGet();
        }

        @Override
        public long arrivedMillis() {
            return 0;
        }

        @Override
        public long arrivedNanos() {
            return 0;
        }
    }

    @AfterEach
    void cancel() {
        if (task != null) {
            task.cancel(Duration.ofSeconds(5));
        }
    }

    @Test
    void aFrameWhoseRecordsDisagreeWithItsHeaderFailsTheTaskNamingTheChannelAndIsNotAcknowledged() {
        startSink();
        CountingFrame good = new CountingFrame(batchOf(3), 3);
        task.deliver(good);
        await().atMost(Duration.ofSeconds(10)).until(() -> good.acknowledged().get() == 1);

        // a sender that counted 5 records into the header of a batch of 2
        CountingFrame undecodable = new CountingFrame(batchOf(2), 5);
        task.deliver(undecodable);

        await().atMost(Duration.ofSeconds(10)).until(() -> task.status() == TaskStatus.FAILED);
        assertThat(task.failure()).contains(UndecodableFrameException.class.getName())
                .contains("Task " + TASK).contains("channel " + INPUT).contains("records 4..8")
                .contains("the header announced 5 sequenced records, the payload holds 2");
        assertThat(undecodable.acknowledged()).as("never counted as consumed").hasValue(0);
        assertThat(task.metrics().malformedFrames()).isEqualTo(1);
    }

    @Test
    void aFrameOfBytesThatAreNoRecordsFailsTheTaskAsWell() {
        startSink();
        CountingFrame garbage = new CountingFrame(new byte[] {2, 99, 1, 2, 3}, 2);
        task.deliver(garbage);

        await().atMost(Duration.ofSeconds(10)).until(() -> task.status() == TaskStatus.FAILED);
        assertThat(task.failure()).contains("channel " + INPUT).contains("records 1..2");
        assertThat(garbage.acknowledged()).hasValue(0);
    }

    private void startSink() {
        TaskSpec spec = new TaskSpec(TASK, "latest-value-sink", 1, JsonMapper.builder().build().createObjectNode(),
                List.of(new InputChannel(INPUT, TaskId.parse("undecodable/src#0"), 0)), List.of());
        task = new TaskFactory(registry, TaskSettings.defaults(), Clock.systemUTC()).create(spec, channel -> {
            throw new AssertionError("a sink has no output channel, asked for " + channel);
        });
        task.start();
    }

    private byte[] batchOf(int events) {
        RecordBatchWriter writer = new RecordBatchWriter(registry.codecs(), 256);
        for (int i = 0; i < events; i++) {
            writer.addEvent(Event.of("key-" + i, (long) i, 1_000 + i));
        }
        return writer.drain();
    }
}
