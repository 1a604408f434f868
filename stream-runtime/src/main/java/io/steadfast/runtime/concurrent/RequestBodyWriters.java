package io.steadfast.runtime.concurrent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads that write HTTP request bodies for the JDK client (Spring's {@code JdkClientHttpRequestFactory} writes
 * each body on an executor; given none, it started a new thread for every request with a body: every heartbeat of a
 * host, every call of the router to a host). One cached pool of daemon threads per JVM, reused between requests.
 */
public final class RequestBodyWriters {

    private static final ExecutorService POOL = Executors.newCachedThreadPool(
            new DaemonThreads("steadfast-http-body"));

    private RequestBodyWriters() {
    }

    /** The shared pool; never shut down (its idle threads end after a minute, and none keeps the JVM alive). */
    public static ExecutorService pool() {
        return POOL;
    }
}
