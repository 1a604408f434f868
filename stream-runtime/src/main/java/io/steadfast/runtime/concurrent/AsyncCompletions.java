package io.steadfast.runtime.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Where {@link CompletableFuture} runs the async stages given no executor: on the common {@link ForkJoinPool} only
 * if its parallelism is above one, else on a <em>new thread per stage</em>. The parallelism defaults to the number
 * of CPUs minus one, so on a two-CPU machine every such stage started a thread: the JDK's {@code HttpClient} hands
 * each response of {@code sendAsync} to one (Spring's {@code JdkClientHttpRequestFactory} sends that way, and wrote
 * each request body on a new thread too): a host running a job started about 24 threads a second. The services now
 * make their calls with blocking clients, but the JDK client and async stages remain in use. A service calls
 * {@link #onThePoolEvenOnSmallMachines()} first thing in {@code main}, before anything touches the pool.
 */
public final class AsyncCompletions {

    /** The system property that sets the common pool's parallelism when it is created. */
    static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";
    /** The least parallelism at which {@code CompletableFuture} uses the common pool. */
    static final int LEAST_POOLED = 2;

    private AsyncCompletions() {
    }

    /**
     * Raises the common pool's parallelism to {@value #LEAST_POOLED} unless it is set already or the machine has
     * more CPUs than that. No effect once the pool exists.
     *
     * @return whether {@code CompletableFuture}'s default executor is now the common pool
     */
    public static boolean onThePoolEvenOnSmallMachines() {
        if (System.getProperty(PARALLELISM) == null && Runtime.getRuntime().availableProcessors() <= LEAST_POOLED) {
            System.setProperty(PARALLELISM, Integer.toString(LEAST_POOLED));
        }
        return isPooled(new CompletableFuture<Void>().defaultExecutor());
    }

    static boolean isPooled(Executor executor) {
        return executor == ForkJoinPool.commonPool();
    }
}
