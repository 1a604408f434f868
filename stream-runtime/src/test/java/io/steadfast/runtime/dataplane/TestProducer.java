package io.steadfast.runtime.dataplane;

import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.TestFrames.Content;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * A producing task for tests: on its own thread it streams events whose payload encodes their sequence numbers
 * ({@value #EVENT_BYTES} bytes per event, the seq in the first 8, a tag of the producer's in the 9th), obeying credit. It runs until
 * {@link #stopAt} or {@link #finishAfter} says where to end; redirects are performed on its thread, as the
 * {@link OutboundChannel} contract requires.
 */
final class TestProducer implements AutoCloseable {

    static final int EVENT_BYTES = 40;

    private final OutboundChannel channel;
    private final int eventsPerFrame;
    private final byte tag;
    private final Thread thread;
    private volatile long lastSeqToSend = Long.MAX_VALUE;
    private volatile String pendingRedirect;
    private volatile boolean waitingForCredit;
    private volatile long framesSent;
    private volatile boolean stopped;
    private volatile Throwable failure;

    TestProducer(OutboundChannel channel, int eventsPerFrame, String name) {
        this(channel, eventsPerFrame, name, (byte) 0);
    }

    private TestProducer(OutboundChannel channel, int eventsPerFrame, String name, byte tag) {
        this.channel = channel;
        this.eventsPerFrame = eventsPerFrame;
        this.tag = tag;
        this.thread = new Thread(this::run, "test-producer-" + name);
        channel.onCreditAvailable(() -> LockSupport.unpark(thread));
    }

    static TestProducer start(OutboundChannel channel, int eventsPerFrame, String name) {
        return start(channel, eventsPerFrame, name, Long.MAX_VALUE);
    }

    /**
     * Starts a producer that sends events up to and including {@code lastSeq}, then stops: set before it starts, since
     * a channel has credit before its receiver answers and a producer started first may already be past it.
     */
    static TestProducer start(OutboundChannel channel, int eventsPerFrame, String name, long lastSeq) {
        return start(channel, eventsPerFrame, name, lastSeq, (byte) 0);
    }

    /**
     * As {@link #start(OutboundChannel, int, String, long)}, with {@code tag} in every event (byte 8), so that a
     * receiver can tell which of several producers of one channel sent a frame (see {@link #tagOf}).
     */
    static TestProducer start(OutboundChannel channel, int eventsPerFrame, String name, long lastSeq, byte tag) {
        TestProducer producer = new TestProducer(channel, eventsPerFrame, name, tag);
        producer.lastSeqToSend = lastSeq;
        producer.thread.start();
        return producer;
    }

    /** Sends events up to and including {@code lastSeq}, then stops. */
    TestProducer stopAt(long lastSeq) {
        lastSeqToSend = lastSeq;
        LockSupport.unpark(thread);
        return this;
    }

    /** Stops after the frame in progress; returns the seq of the last event that will have been sent. */
    long finishNow() {
        lastSeqToSend = 0; // the loop sees it and ends at a frame boundary
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return channel.nextSeq() - 1;
    }

    void redirect(String endpoint) {
        pendingRedirect = endpoint;
        LockSupport.unpark(thread);
    }

    boolean isWaitingForCredit() {
        return waitingForCredit;
    }

    long framesSent() {
        return framesSent;
    }

    boolean isDone() {
        return !thread.isAlive();
    }

    Throwable failure() {
        return failure;
    }

    private void run() {
        try {
            while (!stopped) {
                String redirect = pendingRedirect;
                if (redirect != null) {
                    pendingRedirect = null;
                    channel.redirect(redirect);
                }
                long next = channel.nextSeq();
                if (next > lastSeqToSend) {
                    return;
                }
                if (!channel.hasCredit()) {
                    waitingForCredit = true;
                    // woken by onCreditAvailable; the timeout only guards against a lost wake-up in a test
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                    continue;
                }
                waitingForCredit = false;
                int events = (int) Math.min(eventsPerFrame, lastSeqToSend - next + 1);
                channel.send(encode(next, events, tag), events);
                framesSent++;
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /**
     * Sends events from the channel's next seq up to and including {@code lastSeq} from the calling thread, which
     * thereby acts as the channel's producer, in frames of {@code eventsPerFrame}, waiting for credit.
     *
     * @return what the frames carried, in order
     */
    static List<Content> sendUpTo(OutboundChannel channel, long lastSeq, int eventsPerFrame) {
        return sendUpTo(channel, lastSeq, () -> eventsPerFrame);
    }

    /**
     * As {@link #sendUpTo(OutboundChannel, long, int)}, asking {@code eventsPerFrame} for the size of each frame;
     * where it answers 0, a frame of no events (8 bytes, as a watermark) is sent.
     *
     * @return what the frames of events carried, in order
     */
    static List<Content> sendUpTo(OutboundChannel channel, long lastSeq, IntSupplier eventsPerFrame) {
        List<Content> sent = new ArrayList<>();
        while (channel.nextSeq() <= lastSeq) {
            if (!channel.hasCredit()) {
                await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(channel::hasCredit);
            }
            long next = channel.nextSeq();
            int events = (int) Math.min(eventsPerFrame.getAsInt(), lastSeq - next + 1);
            byte[] payload = events == 0 ? new byte[8] : encode(next, events);
            channel.send(payload, events);
            if (events > 0) {
                sent.add(new Content(next, events, ByteBuffer.wrap(payload)));
            }
        }
        return sent;
    }

    static byte[] encode(long firstSeq, int events) {
        return encode(firstSeq, events, (byte) 0);
    }

    static byte[] encode(long firstSeq, int events, byte tag) {
        ByteBuffer buffer = ByteBuffer.allocate(events * EVENT_BYTES);
        for (int i = 0; i < events; i++) {
            buffer.putLong(i * EVENT_BYTES, firstSeq + i);
            buffer.put(i * EVENT_BYTES + 8, tag);
        }
        return buffer.array();
    }

    /** The tag of the producer that sent a frame of events. */
    static byte tagOf(InboundFrame frame) {
        return frame.payload()[8];
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
