package io.steadfast.runtime.dataplane;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * A consuming task for tests: the listener only enqueues into a mailbox (as the IO-thread contract requires); a
 * consumer thread decodes every event's seq from the payload, records it, and calls {@link InboundFrame#consumed()}.
 * It can be paused (backpressure), and "crashed": frames in the mailbox are lost, and the returned position is
 * what a restarted task would know.
 */
final class RecordingConsumer implements InboundListener, AutoCloseable {

    private record Mail(long generation, InboundFrame frame) {
    }

    private final LinkedBlockingDeque<Mail> mailbox = new LinkedBlockingDeque<>();
    private final Thread thread;
    private final boolean verifyEveryEvent;
    private final Object lock = new Object();
    private volatile long generation;
    private long[] seqs = new long[1 << 16];
    private int count;
    private long lastSeq;
    private long framesProcessed;
    private long framesWithSkip;
    private final List<String> errors = new ArrayList<>();
    private volatile boolean paused;
    /** Pauses itself once it has processed this many events; 0 for never. */
    private volatile int pauseAfter;
    private volatile boolean stopped;

    RecordingConsumer(String name, boolean verifyEveryEvent) {
        this.verifyEveryEvent = verifyEveryEvent;
        this.thread = new Thread(this::run, "test-consumer-" + name);
        thread.start();
    }

    RecordingConsumer(String name) {
        this(name, true);
    }

    @Override
    public void onFrame(InboundFrame frame) {
        mailbox.add(new Mail(generation, frame));
    }

    private void run() {
        while (!stopped) {
            if (paused) {
                synchronized (lock) {
                    try {
                        lock.wait(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                continue;
            }
            Mail mail;
            try {
                mail = mailbox.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (mail != null && paused) {
                mailbox.addFirst(mail); // paused while this thread waited for mail: leave it unprocessed
            } else if (mail != null) {
                process(mail);
            }
        }
    }

    private void process(Mail mail) {
        InboundFrame frame = mail.frame();
        synchronized (lock) {
            if (mail.generation() != generation) {
                return; // lost in the crash
            }
            ByteBuffer payload = ByteBuffer.wrap(frame.payload());
            for (int i = frame.eventsToSkip(); i < frame.eventCount(); i++) {
                long seq = verifyEveryEvent || i == frame.eventsToSkip() || i == frame.eventCount() - 1
                        ? payload.getLong(i * TestProducer.EVENT_BYTES) : frame.firstSeq() + i;
                if (seq != frame.firstSeq() + i && errors.size() < 10) {
                    errors.add("frame " + frame + " event " + i + " carries seq " + seq);
                }
                record(seq);
            }
            framesProcessed++;
            if (frame.eventsToSkip() > 0) {
                framesWithSkip++;
            }
            if (pauseAfter > 0 && count >= pauseAfter) {
                pauseAfter = 0;
                paused = true;
            }
        }
        frame.consumed();
    }

    private void record(long seq) {
        if (count == seqs.length) {
            seqs = Arrays.copyOf(seqs, count * 2);
        }
        seqs[count++] = seq;
        lastSeq = seq;
    }

    /** The task crashed: unprocessed mail is lost. Returns the last seq it had processed. */
    long crash() {
        synchronized (lock) {
            generation++;
            mailbox.clear();
            return lastSeq;
        }
    }

    void pause() {
        paused = true;
    }

    /**
     * Pauses once {@code events} events have been processed, on its own thread: however fast the frames come, it
     * stops there, where a test that polls for the count and then pauses might find every frame processed already.
     */
    void pauseAfter(int events) {
        pauseAfter = events;
    }

    void resume() {
        paused = false;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** Frames delivered and not processed yet, each frame of a bundle counted (as the sender's credit counts them). */
    int mailboxSize() {
        return mailbox.stream().mapToInt(mail -> mail.frame().parts()).sum();
    }

    /** Deliveries not processed yet: a bundle of frames is one. */
    int mailboxDeliveries() {
        return mailbox.size();
    }

    long lastSeq() {
        synchronized (lock) {
            return lastSeq;
        }
    }

    int count() {
        synchronized (lock) {
            return count;
        }
    }

    /** Deliveries processed: a bundle of frames is one. */
    long deliveriesProcessed() {
        synchronized (lock) {
            return framesProcessed;
        }
    }

    long framesWithSkip() {
        synchronized (lock) {
            return framesWithSkip;
        }
    }

    long[] seqs() {
        synchronized (lock) {
            return Arrays.copyOf(seqs, count);
        }
    }

    List<String> errors() {
        synchronized (lock) {
            return List.copyOf(errors);
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
