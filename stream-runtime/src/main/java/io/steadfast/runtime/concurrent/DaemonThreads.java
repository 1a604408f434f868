package io.steadfast.runtime.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes daemon threads named for what they do ({@code steadfast-router-recovery}, or {@code name-2} for the second
 * thread of a pool), so that thread dumps say whose they are and none keeps a JVM alive at shutdown.
 */
public final class DaemonThreads implements ThreadFactory {

    private final String name;
    private final AtomicInteger created = new AtomicInteger();

    public DaemonThreads(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable runnable) {
        int number = created.incrementAndGet();
        Thread thread = new Thread(runnable, number == 1 ? name : name + "-" + number);
        thread.setDaemon(true);
        return thread;
    }
}
