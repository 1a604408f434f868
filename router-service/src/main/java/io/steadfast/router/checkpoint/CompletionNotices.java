package io.steadfast.router.checkpoint;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the hosts of a topology that one of its checkpoints completed ({@code POST .../checkpoints/{n}/completed}),
 * so that their output logs drop what it covers. One thread, {@code steadfast-router-completions}, in completion
 * order; a host that cannot be told keeps its log a checkpoint longer (the next notice truncates it), which costs
 * memory, never correctness.
 */
public final class CompletionNotices implements CheckpointCompletions, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CompletionNotices.class);

    private final HeartbeatFailureDetector detector;
    private final HostClient hostClient;
    private final ExecutorService sender = Executors.newSingleThreadExecutor(new DaemonThreads("steadfast-router-completions"));

    public CompletionNotices(HeartbeatFailureDetector detector, HostClient hostClient) {
        this.detector = detector;
        this.hostClient = hostClient;
    }

    @Override
    public void completed(TopologyId topology, long checkpointId, Set<HostId> hosts) {
        sender.execute(() -> hosts.forEach(hostId -> detector.host(hostId).ifPresent(host -> {
            try {
                hostClient.checkpointCompleted(host, topology, checkpointId);
            } catch (HostCallException e) {
                LOG.debug("Host {} was not told that checkpoint {} of '{}' completed: {}", hostId, checkpointId,
                        topology, e.getMessage());
            }
        })));
    }

    @Override
    public void close() throws InterruptedException {
        sender.shutdownNow();
        sender.awaitTermination(2, TimeUnit.SECONDS);
    }
}
