package io.steadfast.runtime.dataplane;

import static io.steadfast.runtime.dataplane.ExactlyOnce.assertSeqsAreOneTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receiver acknowledges a channel of a few frames at a time on its timer, not once per frame, yet the sender
 * learns of everything consumed and is never held back for credit.
 */
@Timeout(60)
class DeferredAckTest {

    private static final ChannelId CHANNEL = new ChannelId(new TopologyId("deferred-acks"), 1);
    private static final DataPlaneConfig CONFIG = DataPlaneConfig.defaults(); // 32 frames of credit, 200 ms resync

    private final AutoCloseableList resources = new AutoCloseableList();
    private DataPlane sender;
    private DataPlane receiver;

    /** Starts a sending and a receiving data plane and opens the channel between them, consumed by {@code consumer}. */
    private OutboundChannel openChannel(RecordingConsumer consumer) {
        sender = resources.add(DataPlane.start(CONFIG));
        receiver = resources.add(DataPlane.start(CONFIG));
        receiver.openInbound(CHANNEL, 0, resources.add(consumer));
        return sender.openOutbound(CHANNEL, receiver.endpoint(), 1);
    }

    @AfterEach
    void closeEverything() {
        resources.close();
    }

    @Test
    void aTrickleOfFramesIsAcknowledgedPerTimerPassAndCompletely() {
        RecordingConsumer consumer = new RecordingConsumer("trickle");
        OutboundChannel channel = openChannel(consumer);
        int frames = 100;
        AtomicLong sent = new AtomicLong();
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        resources.add((AutoCloseable) producer::shutdownNow);
        // one frame of one event every 2 ms, from one thread (the channel's producer): what a linger-flushed
        // channel of a busy job looks like, many times faster than the receiver's timer (50 ms)
        producer.scheduleAtFixedRate(() -> {
            if (sent.get() < frames) {
                TestProducer.sendUpTo(channel, sent.incrementAndGet(), 1);
            }
        }, 0, 2, TimeUnit.MILLISECONDS);

        await().atMost(Duration.ofSeconds(20)).until(() -> consumer.lastSeq() == frames);
        assertSeqsAreOneTo(consumer, frames);
        // the last frames are below the immediate-ACK threshold: only the timer can report them
        await().atMost(Duration.ofSeconds(2)).until(() -> channel.acknowledgedSeq() == frames);
        assertThat(receiver.metrics().acksSent())
                .as("ACKs (and the one SYNC_REPLY) for %d frames consumed one by one", frames)
                .isLessThanOrEqualTo(frames / 2);
    }

    @Test
    void aSenderAtFullSpeedIsNotHeldBackByDeferredAcks() {
        RecordingConsumer consumer = new RecordingConsumer("full-speed");
        OutboundChannel channel = openChannel(consumer);
        long events = 20_000;
        TestProducer producer = resources.add(TestProducer.start(channel, 1, "full-speed", events));

        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.lastSeq() == events);
        assertSeqsAreOneTo(consumer, events);
        assertThat(producer.failure()).isNull();
        // a quarter of the window per ACK while the sender keeps the window full, not one per frame
        assertThat(receiver.metrics().acksSent()).isLessThan(events / 2);
        // the sender heard from the receiver in time: a sender waiting on deferred ACKs would resync (after 200 ms
        // of silence) once per window of 32 frames, hundreds of times; a stall of the loaded test machine may
        // cause one now and then (it caused three once, in a full build beside a benchmark's processes)
        assertThat(sender.metrics().syncsSent()).isLessThanOrEqualTo(10);
        await().atMost(Duration.ofSeconds(2)).until(() -> channel.acknowledgedSeq() == events);
    }
}
