package io.steadfast.dashboard.overview;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Pushes a fresh {@link Overview} to every open {@code /api/v1/events} stream at a fixed interval.
 *
 * <p>Threading: one thread, {@value #THREAD_NAME}, owned by this feed, assembles the overview once per tick (only
 * while someone listens) and sends it to every emitter; request threads only add emitters. An emitter leaves the
 * set when it completes, times out or fails, or when a send to it fails.
 *
 * <p>Life cycle: started and stopped with the application context; stopping completes every open stream, so that
 * graceful shutdown does not wait for pages that would never hang up.
 */
public class OverviewFeed implements SmartLifecycle {

    static final String THREAD_NAME = "dashboard-overview-feed";
    static final String EVENT_NAME = "overview";

    private static final Logger log = LoggerFactory.getLogger(OverviewFeed.class);

    private final OverviewAssembler assembler;
    private final Duration interval;
    private final Duration emitterTimeout;
    private final Set<SseEmitter> emitters = ConcurrentHashMap.newKeySet();
    private final AtomicLong eventIds = new AtomicLong();
    private volatile ScheduledExecutorService scheduler;

    public OverviewFeed(OverviewAssembler assembler, Duration interval, Duration emitterTimeout) {
        this.assembler = assembler;
        this.interval = interval;
        this.emitterTimeout = emitterTimeout;
    }

    /** A new stream; its first event comes with the next tick, at most one interval from now. */
    public SseEmitter subscribe() {
        SseEmitter emitter = new SseEmitter(emitterTimeout.toMillis());
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> {
            emitters.remove(emitter);
            emitter.complete();
        });
        emitter.onError(error -> emitters.remove(emitter));
        emitters.add(emitter);
        return emitter;
    }

    /** How many streams are open. */
    public int subscriberCount() {
        return emitters.size();
    }

    void tick() {
        // An exception escaping a scheduled task would silently cancel every later tick.
        try {
            if (emitters.isEmpty()) {
                return;
            }
            Overview overview = assembler.assemble();
            SseEmitter.SseEventBuilder event = SseEmitter.event().name(EVENT_NAME)
                    .id(Long.toString(eventIds.incrementAndGet())).data(overview, MediaType.APPLICATION_JSON);
            for (SseEmitter emitter : emitters) {
                send(emitter, event);
            }
        } catch (RuntimeException e) {
            log.error("Overview feed tick failed; the next tick tries again", e);
        }
    }

    private void send(SseEmitter emitter, SseEmitter.SseEventBuilder event) {
        try {
            emitter.send(event);
        } catch (IOException | IllegalStateException e) {
            // The page went away (or the emitter already completed): the container reports the error on its own
            // thread as well; forgetting the emitter here stops sends to it from the next tick on.
            emitters.remove(emitter);
            log.debug("Dropped an overview stream: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        scheduler = null;
        for (SseEmitter emitter : emitters) {
            emitters.remove(emitter);
            emitter.complete();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
