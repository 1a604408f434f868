package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's credit on one outbound channel: frames handed over less frames released, against the window the
 * receiver last granted, and the wake-up of a producer that found none. The producer thread writes the frames handed
 * over; the IO thread writes the frames released and the window. Neither takes a lock: each counter has one writer.
 */
final class SenderCredit {

    private static final Logger log = LoggerFactory.getLogger(SenderCredit.class);

    private final ChannelId channel;
    private volatile long framesHandedOver;
    private volatile long framesReleased;
    private volatile int windowFrames;
    private final AtomicBoolean producerWaiting = new AtomicBoolean();
    private volatile Runnable listener = () -> { };

    /** @param initialWindow frames the producer may hand over before the receiver first answers */
    SenderCredit(ChannelId channel, int initialWindow) {
        this.channel = channel;
        this.windowFrames = initialWindow;
    }

    // ---------------------------------------------------------------- producer thread

    boolean available() {
        return framesHandedOver - framesReleased < windowFrames;
    }

    /** Whether credit is available; if not, the listener is called once the IO thread releases some. */
    boolean availableOrWait() {
        if (available()) {
            return true;
        }
        producerWaiting.set(true);
        // re-check: the IO thread may have released credit before it could see the flag
        return available();
    }

    void handedOver() {
        framesHandedOver = framesHandedOver + 1;
    }

    void onAvailable(Runnable wakeUp) {
        this.listener = Objects.requireNonNull(wakeUp, "wakeUp");
    }

    // ---------------------------------------------------------------- IO thread

    /** The window the receiver last granted, in frames. */
    int window() {
        return windowFrames;
    }

    void grant(int frames) {
        windowFrames = frames;
    }

    void release(long frames) {
        framesReleased = framesReleased + frames;
    }

    /** Wakes a producer that found no credit, if there is some now. */
    void wakeProducerIfAvailable() {
        if (available() && producerWaiting.getAndSet(false)) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.error("Credit listener of channel {} threw; it must not throw or block", channel, e);
            }
        }
    }
}
