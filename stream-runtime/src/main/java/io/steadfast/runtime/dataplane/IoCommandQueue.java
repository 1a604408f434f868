package io.steadfast.runtime.dataplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hands work from any thread to the IO thread: a concurrent queue plus a wake-up byte on a pipe whose source
 * channel sits in the IO thread's poller. Only the first submit after the IO thread went to sleep writes to the
 * pipe, so a busy producer costs no system call per command.
 */
final class IoCommandQueue implements AutoCloseable {

    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeUpPending = new AtomicBoolean();
    private final Pipe pipe;
    private final ByteBuffer wakeUpByte = ByteBuffer.allocate(1);
    private final ByteBuffer drainBuffer = ByteBuffer.allocate(64);

    IoCommandQueue() {
        try {
            pipe = Pipe.open();
            pipe.source().configureBlocking(false);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the data plane wake-up pipe", e);
        }
    }

    /** The channel to register in the poller; readable when commands are waiting. */
    SelectableChannel wakeUpChannel() {
        return pipe.source();
    }

    /** Any thread. */
    void submit(Runnable command) {
        commands.add(command);
        if (wakeUpPending.compareAndSet(false, true)) {
            writeWakeUp();
        }
    }

    private void writeWakeUp() {
        try {
            synchronized (wakeUpByte) {
                wakeUpByte.clear();
                pipe.sink().write(wakeUpByte);
            }
        } catch (IOException e) {
            // the pipe is closed only after the IO thread stopped; nobody is left to wake
        }
    }

    /**
     * IO thread: consumes the wake-up bytes and re-arms the wake-up before draining, so a command added while
     * draining either is seen by this drain or writes a new wake-up. The pipe is read only when a wake-up is pending
     * or the poller saw it readable (a byte written just after an earlier drain), not on every pass of the loop.
     *
     * @param signalled whether the poller reported the wake-up channel readable
     * @return how many commands ran
     */
    int runAll(boolean signalled) {
        if (signalled || wakeUpPending.get()) {
            try {
                drainBuffer.clear();
                while (pipe.source().read(drainBuffer) > 0) {
                    drainBuffer.clear();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Data plane wake-up pipe failed", e);
            }
        }
        wakeUpPending.set(false);
        int count = 0;
        Runnable command;
        while ((command = commands.poll()) != null) {
            command.run();
            count++;
        }
        return count;
    }

    @Override
    public void close() {
        try {
            pipe.sink().close();
            pipe.source().close();
        } catch (IOException e) {
            // closing; nothing to recover
        }
    }
}
