package io.steadfast.runtime.task;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The hand-off into a task thread: control mails and input frames in two queues, plus a wake-up. Any thread
 * may enqueue; only the owning task thread takes. The task parks when it has nothing to do and is unparked
 * by the first enqueue after it announced that it will park, so an idle task costs no CPU and a busy one
 * pays no syscall per message.
 */
final class TaskMailbox {

    private final Queue<Runnable> mails = new ConcurrentLinkedQueue<>();
    private final Queue<InputFrame> frames = new ConcurrentLinkedQueue<>();
    private final AtomicInteger frameCount = new AtomicInteger();
    private final AtomicBoolean parked = new AtomicBoolean();
    /** While set, the owner waits for output credit: more input cannot be taken, so its arrival wakes no one. */
    private volatile boolean awaitingCredit;
    private volatile Thread owner;

    void bindOwner(Thread thread) {
        this.owner = thread;
    }

    void putMail(Runnable mail) {
        mails.add(mail);
        wakeUp();
    }

    void putFrame(InputFrame frame) {
        frames.add(frame);
        frameCount.incrementAndGet();
        if (!awaitingCredit) {
            wakeUp();
        }
    }

    Runnable pollMail() {
        return mails.poll();
    }

    InputFrame pollFrame() {
        InputFrame frame = frames.poll();
        if (frame != null) {
            frameCount.decrementAndGet();
        }
        return frame;
    }

    /** The frame {@link #pollFrame()} would take, left in place; null if none waits. */
    InputFrame peekFrame() {
        return frames.peek();
    }

    int queuedFrames() {
        return frameCount.get();
    }

    /** Wakes the owner if it is parked, or keeps it from parking next time. */
    void wakeUp() {
        if (parked.compareAndSet(true, false)) {
            Thread thread = owner;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    /**
     * Parks the owner, out of output credit, for at most {@code nanos}: until a mail or a {@link #wakeUp} (credit
     * came back) arrives, but not for input frames, which it could not take; without this a backpressured task
     * would spin on every frame that arrives, taking the CPU from the tasks it waits for.
     */
    void parkForCredit(long nanos) {
        awaitingCredit = true;
        parked.set(true);
        if (!mails.isEmpty()) {
            parked.set(false);
            awaitingCredit = false;
            return;
        }
        LockSupport.parkNanos(this, Math.max(TimeUnit.MICROSECONDS.toNanos(50), nanos));
        parked.set(false);
        awaitingCredit = false;
    }

    /** Parks the owner for at most {@code nanos}, unless something was enqueued meanwhile. */
    void park(long nanos) {
        parked.set(true);
        if (!mails.isEmpty() || !frames.isEmpty()) {
            parked.set(false);
            return;
        }
        LockSupport.parkNanos(this, Math.max(TimeUnit.MICROSECONDS.toNanos(50), nanos));
        parked.set(false);
    }
}
