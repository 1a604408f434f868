package io.steadfast.benchmarks;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.protocol.router.HostView;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Watches a frozen host after it runs again: when the router lists it LIVE again, having declared it DEAD (so under a
 * new session: once the router declared a session DEAD it refuses that session for good), and which of the tasks it ran
 * before the freeze it still reports in the heartbeats of the next {@link #STALE_WINDOW}. Reads
 * {@code GET /api/v1/hosts} every {@link #POLL} from when the host is to run again, on a thread of its own; the
 * recovery of its tasks may still be catching up meanwhile.
 */
final class RejoinWatch implements AutoCloseable {

    /**
     * How often the router's host list is read from the resume on. The rejoin is timed by the router's record of the
     * host's latest heartbeat when it is first seen LIVE again: the heartbeat a host sends right after it registers,
     * or a later one if the router answered a poll late (a host sends one every 200 ms).
     */
    static final Duration POLL = Duration.ofMillis(50);
    /** How long after it rejoined the host's task reports are searched for its former tasks: three heartbeats. */
    static final Duration STALE_WINDOW = RecoveryBenchmark.HEARTBEAT_INTERVAL.multipliedBy(3);

    /**
     * What the watch saw.
     *
     * @param at         when the router heard from the host again after it had declared it DEAD
     * @param staleTasks the tasks it ran before the freeze that it reported after it rejoined, each with its status
     */
    record Rejoined(Instant at, List<String> staleTasks) {
    }

    private final RouterClient router;
    private final TopologyId topology;
    private final HostId host;
    private final Instant from;
    private final CompletableFuture<Rejoined> result = new CompletableFuture<>();
    private final ScheduledExecutorService polls = Executors.newSingleThreadScheduledExecutor(
            new DaemonThreads("bench-rejoin"));
    // written by the poll thread only
    private volatile Instant rejoinedAt; // read by await() for its message
    private Set<String> formerTasks = Set.of();
    private final Set<String> stale = new TreeSet<>();

    private RejoinWatch(RouterClient router, TopologyId topology, HostId host, Instant from) {
        this.router = router;
        this.topology = topology;
        this.host = host;
        this.from = from;
    }

    /** Watches {@code host}, a host of {@code topology} that runs again at {@code from}. Close it in every path. */
    static RejoinWatch start(RouterClient router, TopologyId topology, HostId host, Instant from) {
        RejoinWatch watch = new RejoinWatch(router, topology, host, from);
        watch.polls.scheduleWithFixedDelay(watch::poll, Math.max(0, Duration.between(Instant.now(), from).toMillis()),
                POLL.toMillis(), TimeUnit.MILLISECONDS);
        return watch;
    }

    /** Waits until the host rejoined and its reports were watched for {@link #STALE_WINDOW}, up to {@code timeout}. */
    Rejoined await(Duration timeout) throws InterruptedException {
        try {
            return result.get(Duration.between(Instant.now(), from.plus(timeout)).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(host + " was not LIVE again under a new session within "
                    + timeout.toSeconds() + " s of its resume" + (rejoinedAt == null ? ""
                    : " (it rejoined at " + rejoinedAt + " but sent no heartbeat " + STALE_WINDOW.toMillis()
                    + " ms later)") + "; see its log for 'fenced itself'");
        } catch (ExecutionException e) {
            throw new IllegalStateException("watching " + host + " rejoin failed: " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    private void poll() {
        try {
            Optional<HostView> view = router.hosts().stream().filter(h -> h.hostId().equals(host)).findFirst()
                    .filter(HostView::isLive);
            Optional<Instant> heartbeat = view.map(HostView::lastHeartbeat);
            if (heartbeat.isEmpty() || (rejoinedAt == null && !rejoinedAt(heartbeat.get()))) {
                return;
            }
            for (TaskReport report : view.get().tasks()) {
                if (formerTasks.contains(report.task())) {
                    stale.add(report.task() + " " + report.status());
                }
            }
            if (!heartbeat.get().isBefore(rejoinedAt.plus(STALE_WINDOW))) {
                result.complete(new Rejoined(rejoinedAt, List.copyOf(stale)));
            }
        } catch (RouterRequestException e) {
            // a loaded router: the next poll asks again
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    /**
     * Whether a LIVE host last heard from at {@code heartbeat} has rejoined: heard from after it was to run again and
     * after the router declared it DEAD; if so, records when and which tasks it ran before.
     */
    private boolean rejoinedAt(Instant heartbeat) {
        if (heartbeat.isBefore(from)) {
            return false;
        }
        Optional<RecoveryView> recovery = router.recoveries(topology).stream()
                .filter(r -> r.detection().failedHost().equals(host)).findFirst();
        if (recovery.isEmpty() || !heartbeat.isAfter(recovery.get().detection().detectedAt())) {
            return false;
        }
        rejoinedAt = heartbeat;
        formerTasks = recovery.get().tasks().stream().map(TaskId::toString).collect(Collectors.toUnmodifiableSet());
        return true;
    }

    @Override
    public void close() {
        polls.shutdownNow();
    }
}
