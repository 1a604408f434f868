package io.steadfast.host.replaylog;

import io.github.resilience4j.core.IntervalFunction;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.dataplane.OutputLogSink;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.replaylog.ReplayLogSegment;
import io.steadfast.runtime.replaylog.ReplayLogSupersededException;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships what the data plane's output logs record to the replay-log store (the checkpoint-service), so that a
 * channel can be replayed after its sender's host is lost.
 *
 * <p>{@link #logged} and {@link #truncated} are called on the data plane's IO thread: they only queue and wake the
 * shipping thread, never block and never throw. One daemon thread, {@code steadfast-host-replay-log-shipper},
 * ships in order: a batch goes when {@code batchSize} bytes are queued or the oldest entry has waited
 * {@code linger}; the segments of a batch are uploaded (one request per topology) before the truncations queued
 * among them, which are coalesced per channel to the highest position, so a truncation never runs ahead of a
 * segment it should delete. Segments a truncation already covers are not uploaded at all. While the store is down
 * the thread retries the same batch with exponential backoff (from {@code retryWait} to {@code retryMaxWait}),
 * meanwhile the queue fills up to {@code queueCapacity} bytes; beyond that segments are dropped and their
 * channel's shipped log is marked incomplete ({@link #completeAfter}), and a recovery that needs those records
 * must fall back to a global restore. An upload the store refuses (a 4xx answer, e.g. a segment above its size
 * limit) is not retried: its segments are sent one by one and those refused are dropped the same way.
 *
 * <p>Each segment carries the incarnation of the sending task that logged it. Once the store refuses a channel's
 * segments as of a superseded sender ({@link ReplayLogSupersededException}: a newer copy of the task took over, after
 * this host was frozen or cut off), the shipper logs it once at WARN and drops, without sending them, that channel's
 * segments of the incarnations below the store's minimum; the rest of the upload goes on.
 *
 * <p>Lifecycle: {@link #start} starts the thread; {@link #close} stops taking segments, ships what is queued for up
 * to {@code drainTimeout} and drops the rest. Thread-safe.
 */
public final class ReplayLogShipper implements OutputLogSink, MeterBinder, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplayLogShipper.class);
    private static final String THREAD = "steadfast-host-replay-log-shipper";

    /**
     * How the shipper batches, bounds its queue and retries.
     *
     * @param queueCapacity  bytes of segments queued or being shipped, at most
     * @param batchSize      bytes of segments per upload, at most (a larger segment goes alone)
     * @param maxSegmentSize the largest segment shipped, at most the store's limit; a larger one is dropped at once
     *                       (an upload the store cuts off for its size could not even be told from an outage)
     * @param linger         how long a queued entry may wait for a batch to fill
     * @param retryWait      the first wait after a failed call; doubled after each further failure
     * @param retryMaxWait   the longest wait between two attempts
     * @param drainTimeout   how long {@link #close} ships what is queued before dropping it
     */
    public record Settings(long queueCapacity, long batchSize, long maxSegmentSize, Duration linger,
                           Duration retryWait, Duration retryMaxWait, Duration drainTimeout) {

        public Settings {
            if (maxSegmentSize <= 0) {
                throw new IllegalArgumentException("max segment size must be positive, was " + maxSegmentSize);
            }
            if (batchSize <= 0 || queueCapacity < batchSize) {
                throw new IllegalArgumentException("batch size (" + batchSize + " bytes) must be positive and at most"
                        + " the queue capacity (" + queueCapacity + " bytes)");
            }
            if (retryWait.compareTo(retryMaxWait) > 0) {
                throw new IllegalArgumentException("retry wait " + retryWait + " exceeds the longest retry wait "
                        + retryMaxWait);
            }
        }
    }

    private final ReplayLogStore store;
    private final Settings settings;
    private final ReplayLogQueue queue;
    private final IntervalFunction backoff;
    private final Map<TopologyId, Long> latestCompleted = new ConcurrentHashMap<>();
    /** Per channel, the oldest incarnation of its sender whose segments the store still takes, once it refused one. */
    private final Map<ChannelId, Integer> takenFrom = new ConcurrentHashMap<>();
    /** Shipping thread only: the truncation position each channel's store has been sent. */
    private final Map<ChannelId, Long> truncationsSent = new HashMap<>();
    private final AtomicLong shipped = new AtomicLong();
    private final AtomicLong failedRequests = new AtomicLong();
    private final Thread thread;
    private volatile boolean idle;
    private volatile boolean closing;
    private volatile long drainDeadline;
    private boolean failing;

    public ReplayLogShipper(ReplayLogStore store, Settings settings) {
        this.store = store;
        this.settings = settings;
        this.queue = new ReplayLogQueue(settings.queueCapacity());
        this.backoff = IntervalFunction.ofExponentialBackoff(settings.retryWait(), 2.0, settings.retryMaxWait());
        this.thread = new Thread(this::run, THREAD);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /**
     * A checkpoint of the topology completed: segments logged from now on record it (the latest one) as the
     * checkpoint they were logged under. Any thread.
     */
    public void checkpointCompleted(TopologyId topology, long checkpointId) {
        latestCompleted.merge(topology, checkpointId, Math::max);
    }

    /**
     * Queues the segment, or drops it and marks its channel incomplete when the queue is full or the segment is
     * larger than {@code maxSegmentSize}. Never blocks.
     */
    @Override
    public void logged(LogSegment segment) {
        ReplayLogSegment entry = new ReplayLogSegment(segment,
                latestCompleted.getOrDefault(segment.channel().topology(), ReplayLogSegment.NO_CHECKPOINT));
        if (closing || entry.sizeBytes() > settings.maxSegmentSize() || superseded(entry)) {
            queue.drop(entry);
            return;
        }
        long queued = queue.offer(entry, System.nanoTime());
        if (queued < 0) {
            return;
        }
        if (idle || (queued >= settings.batchSize() && queued - entry.sizeBytes() < settings.batchSize())) {
            wake();
        }
    }

    /** Queues the truncation, to be sent after the segments queued before it. Never blocks. */
    @Override
    public void truncated(ChannelId channel, long upToSeq) {
        queue.truncate(channel, upToSeq, System.nanoTime());
        if (idle) {
            wake();
        }
    }

    /**
     * Whether the store holds, or will hold once what is queued is shipped, every record this host logged on the
     * channel after {@code seq}: false when some of them were dropped (queue full, refused by the store), and when
     * {@code seq} lies below the channel's last truncation (those records are deleted). A host that dies loses
     * what it had queued as well; only the receivers know how far a channel went. Any thread.
     */
    public boolean completeAfter(ChannelId channel, long seq) {
        return queue.completeAfter(channel, seq);
    }

    /** The first record of the channel that was dropped and is still needed, if any. Any thread. */
    public OptionalLong incompleteFrom(ChannelId channel) {
        return queue.incompleteFrom(channel);
    }

    /** Bytes of segments queued or being shipped. */
    public long queuedBytes() {
        return queue.bytes();
    }

    /** Segments the store has taken since the start. */
    public long shippedSegments() {
        return shipped.get();
    }

    /** Segments dropped since the start: queue full, refused by the store, or left at shutdown. */
    public long droppedSegments() {
        return queue.dropped();
    }

    /** Calls to the store that failed and were retried, since the start. */
    public long failedRequests() {
        return failedRequests.get();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("steadfast.host.replaylog.queued", this, ReplayLogShipper::queuedBytes).baseUnit("bytes")
                .description("Replay-log bytes queued or being shipped to the checkpoint-service").register(registry);
        FunctionCounter.builder("steadfast.host.replaylog.segments.shipped", this, ReplayLogShipper::shippedSegments)
                .description("Replay-log segments the checkpoint-service stored").register(registry);
        FunctionCounter.builder("steadfast.host.replaylog.segments.dropped", this, ReplayLogShipper::droppedSegments)
                .description("Replay-log segments dropped (queue full, refused, or left at shutdown); their channels'"
                        + " logs are incomplete").register(registry);
        FunctionCounter.builder("steadfast.host.replaylog.requests.failed", this, ReplayLogShipper::failedRequests)
                .description("Calls to the checkpoint-service's replay-log API that failed and were retried")
                .register(registry);
    }

    private void wake() {
        idle = false;
        LockSupport.unpark(thread);
    }

    private void run() {
        long lingerNanos = settings.linger().toNanos();
        while (!closing || (!queue.isEmpty() && System.nanoTime() - drainDeadline < 0)) {
            long oldest = queue.oldestEnqueuedNanos();
            if (oldest < 0) {
                idle = true;
                if (queue.isEmpty() && !closing) {
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            long wait = oldest + lingerNanos - System.nanoTime();
            if (wait > 0 && queue.bytes() < settings.batchSize() && !closing) {
                LockSupport.parkNanos(this, wait);
                continue;
            }
            ship(queue.take(settings.batchSize()));
        }
        ReplayLogQueue.Batch left = queue.take(Long.MAX_VALUE);
        if (!left.segments().isEmpty()) {
            LOG.warn("Replay-log shipper stopped with {} segments ({} bytes) not shipped; the channels' shipped logs"
                    + " are incomplete", left.segments().size(), left.bytes());
            queue.lost(left.segments());
        }
    }

    private void ship(ReplayLogQueue.Batch batch) {
        Map<TopologyId, List<ReplayLogSegment>> byTopology = new LinkedHashMap<>();
        for (ReplayLogSegment segment : batch.segments()) {
            byTopology.computeIfAbsent(segment.channel().topology(), t -> new ArrayList<>()).add(segment);
        }
        byTopology.forEach(this::upload);
        batch.truncations().forEach((channel, upTo) -> {
            if (upTo > truncationsSent.getOrDefault(channel, 0L)
                    && call(() -> store.truncate(channel, upTo)) == Outcome.DONE) {
                truncationsSent.put(channel, upTo);
            }
        });
    }

    /**
     * Uploads the segments; when the store refuses several at once, one by one, so that only the bad ones are lost. When
     * it refuses those of a superseded sender, the others again without them.
     */
    private void upload(TopologyId topology, List<ReplayLogSegment> segments) {
        Outcome outcome = call(() -> store.store(topology, segments));
        if (outcome == Outcome.DONE) {
            queue.stored(segments);
            shipped.addAndGet(segments.size());
        } else if (outcome == Outcome.SUPERSEDED && segments.stream().anyMatch(this::superseded)) {
            queue.lost(segments.stream().filter(this::superseded).toList());
            List<ReplayLogSegment> rest = segments.stream().filter(segment -> !superseded(segment)).toList();
            if (!rest.isEmpty()) {
                upload(topology, rest);
            }
        } else if (outcome == Outcome.REFUSED && segments.size() > 1) {
            segments.forEach(segment -> upload(topology, List.of(segment)));
        } else {
            queue.lost(segments);
        }
    }

    /** Whether the store refuses the segment's sender, a copy of the task that a newer one replaced. */
    private boolean superseded(ReplayLogSegment segment) {
        return segment.incarnation() < takenFrom.getOrDefault(segment.channel(), 0);
    }

    /** Remembers which incarnations of the channel's sender the store refuses from now on; says so once. */
    private void refusedAsSuperseded(ReplayLogSupersededException e) {
        int before = takenFrom.getOrDefault(e.channel(), 0);
        if (takenFrom.merge(e.channel(), e.minimum(), Math::max) > before) {
            LOG.warn("Dropping the replay-log segments of channel {} from incarnations below {} of its sender, without"
                    + " retrying: {}", e.channel(), e.minimum(), e.getMessage());
        }
    }

    private enum Outcome { DONE, REFUSED, SUPERSEDED, GAVE_UP }

    /** Runs the call until it succeeds, the store refuses it, or stopping gives up on it. */
    private Outcome call(Runnable call) {
        for (int attempt = 1; ; attempt++) {
            try {
                call.run();
                if (failing) {
                    failing = false;
                    LOG.info("The replay-log store answers again; {} bytes queued", queue.bytes());
                }
                return Outcome.DONE;
            } catch (ReplayLogRejectedException e) {
                LOG.warn("Replay-log data refused: {}", e.getMessage());
                return Outcome.REFUSED;
            } catch (ReplayLogSupersededException e) {
                refusedAsSuperseded(e);
                return Outcome.SUPERSEDED;
            } catch (RuntimeException e) {
                failedRequests.incrementAndGet();
                if (!failing) {
                    failing = true;
                    LOG.warn("Cannot ship replay logs ({}: {}); retrying with backoff up to {} while up to {} bytes"
                            + " queue up", e.getClass().getSimpleName(), e.getMessage(), settings.retryMaxWait(),
                            settings.queueCapacity());
                }
                long waitNanos = TimeUnit.MILLISECONDS.toNanos(backoff.apply(attempt));
                if (closing && System.nanoTime() + waitNanos - drainDeadline > 0) {
                    return Outcome.GAVE_UP;
                }
                LockSupport.parkNanos(this, waitNanos);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        drainDeadline = System.nanoTime() + settings.drainTimeout().toNanos();
        closing = true;
        LockSupport.unpark(thread);
        if (thread.isAlive()) {
            thread.join(settings.drainTimeout().plusSeconds(1).toMillis());
        }
    }
}
