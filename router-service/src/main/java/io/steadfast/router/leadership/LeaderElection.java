package io.steadfast.router.leadership;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One router's part in electing the leader among replicas through a {@link LeaseStore}. Every
 * {@code retry-period} it reads the lease: the leader renews it; a contender that has seen the same version of it for
 * a whole {@code lease-duration} (by its own monotonic clock: no router compares timestamps with another) takes it
 * over with the next epoch. The leader acts until {@code renew-deadline} after it sent its last successful renewal;
 * a watchdog thread calls {@code onLost} the moment that passes, and the router halts on it. Since the renew deadline
 * is shorter than the lease duration, and a contender's wait starts only after it has read the renewal, a leader that
 * is frozen, partitioned from the store or merely slow stops before anyone can take over (as long as the clocks of
 * the replicas run at rates within that margin of each other). Owns two daemon threads,
 * {@code steadfast-router-leader-election} and {@code steadfast-router-leader-watchdog}.
 */
public final class LeaderElection implements Leadership, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
    private static final long WATCHDOG_MILLIS = 20;
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final LeaseStore store;
    private final String holder;
    private final URI url;
    private final LeaderElectionProperties settings;
    private final LongSupplier nanos;
    private final Clock clock;
    private final Consumer<String> onLost;
    private final CountDownLatch elected = new CountDownLatch(1);
    private final ScheduledExecutorService election = daemon("steadfast-router-leader-election");
    private final ScheduledExecutorService watchdog = daemon("steadfast-router-leader-watchdog");

    /** The lease as last read (election thread only). */
    private Optional<StoredLease> seen = Optional.empty();
    /** When {@code seen} was first read in its version (election thread only). */
    private long seenSince;
    private volatile boolean leading;
    private volatile long validUntil;
    private volatile long epoch;
    private volatile Optional<URI> leader = Optional.empty();
    private long lastWarning = Long.MIN_VALUE;

    /**
     * @param url where this router serves its API, given to the others as the leader's URL
     * @param onLost what to do when this router, having led, may no longer act (called once, on the watchdog thread)
     */
    public LeaderElection(LeaseStore store, URI url, LeaderElectionProperties settings, LongSupplier nanos,
                          Clock clock, Consumer<String> onLost) {
        this.store = store;
        this.url = url;
        this.settings = settings;
        this.nanos = nanos;
        this.clock = clock;
        this.onLost = onLost;
        this.holder = url + "#" + UUID.randomUUID();
    }

    /** Starts contending; returns at once. */
    public LeaderElection start() {
        LOG.info("Router {} contends for the {} (lease {}, renew deadline {}, retry every {})", url, store.describe(),
                settings.leaseDuration(), settings.renewDeadline(), settings.retryPeriod());
        election.scheduleWithFixedDelay(this::lookAtLease, 0, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
        watchdog.scheduleWithFixedDelay(this::checkRenewDeadline, WATCHDOG_MILLIS, WATCHDOG_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Blocks until this router leads. */
    public void awaitLeadership() throws InterruptedException {
        elected.await();
    }

    /** Blocks until this router leads or {@code timeout} passes; whether it leads. */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        return elected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean isLeading() {
        return leading && nanos.getAsLong() - validUntil < 0;
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public Optional<URI> leaderUrl() {
        return leading ? Optional.of(url) : leader;
    }

    /** This router's identity in the lease. */
    public String holder() {
        return holder;
    }

    void lookAtLease() {
        try {
            tick();
        } catch (RuntimeException e) {
            long now = nanos.getAsLong();
            if (lastWarning == Long.MIN_VALUE || now - lastWarning >= WARN_EVERY_NANOS) {
                lastWarning = now;
                LOG.warn("Router {} could not read or write the {}: {}{}", url, store.describe(), e.toString(),
                        leading ? "; it acts until its renew deadline and halts then unless a renewal gets through"
                                : "; retrying");
            }
        }
    }

    /** One look at the lease, which may throw (election thread). */
    private void tick() {
        Optional<StoredLease> current = store.read();
        long readAt = nanos.getAsLong();
        if (current.isPresent() && current.get().record().holder().equals(holder)) {
            renew(current.get());
            return;
        }
        if (leading) {
            lose("another router, " + current.map(c -> c.record().holderUrl().toString()).orElse("(none)")
                    + ", holds the lease now");
            return;
        }
        if (current.isEmpty()) {
            take(current, 1);
            return;
        }
        if (seen.isEmpty() || !seen.get().version().equals(current.get().version())) {
            if (seen.isEmpty() || !seen.get().record().holder().equals(current.get().record().holder())) {
                LOG.info("Router {} stands by: {} leads (epoch {}); it takes over once the lease stays unrenewed for"
                        + " {}", url, current.get().record().holderUrl(), current.get().record().epoch(),
                        settings.leaseDuration());
            }
            seen = current;
            seenSince = readAt;
            leader = Optional.of(current.get().record().holderUrl());
            return;
        }
        if (readAt - seenSince >= settings.leaseDuration().toNanos()) {
            LOG.warn("Router {} takes over from {}: its lease (epoch {}) went unrenewed for {} ms", url,
                    current.get().record().holderUrl(), current.get().record().epoch(),
                    TimeUnit.NANOSECONDS.toMillis(readAt - seenSince));
            take(current, current.get().record().epoch() + 1);
        }
    }

    private void take(Optional<StoredLease> current, long nextEpoch) {
        long sent = nanos.getAsLong();
        if (!store.replace(current, new LeaseRecord(holder, url, nextEpoch, clock.instant()))) {
            seen = Optional.empty(); // someone else was faster: watch its lease from scratch
            return;
        }
        epoch = nextEpoch;
        validUntil = sent + settings.renewDeadline().toNanos();
        leading = true;
        leader = Optional.of(url);
        LOG.info("Router {} leads, epoch {} ({})", url, nextEpoch, store.describe());
        elected.countDown();
    }

    private void renew(StoredLease current) {
        long sent = nanos.getAsLong();
        if (!leading) {
            // a write of ours whose answer was lost: the lease is ours, take it as taken now
            take(Optional.of(current), current.record().epoch());
            return;
        }
        if (store.replace(Optional.of(current), current.record().renewed(clock.instant()))) {
            validUntil = sent + settings.renewDeadline().toNanos();
        } else {
            lose("its renewal was refused: another router wrote the lease");
        }
    }

    /** Ends this router's leadership once its renew deadline passed without a renewal (watchdog thread). */
    void checkRenewDeadline() {
        if (leading && nanos.getAsLong() - validUntil >= 0) {
            lose("no renewal of the " + store.describe() + " got through within " + settings.renewDeadline());
        }
    }

    private synchronized void lose(String why) {
        if (!leading) {
            return;
        }
        leading = false;
        LOG.error("Router {} stops leading (epoch {}): {}", url, epoch, why);
        onLost.accept(why);
    }

    @Override
    public void close() {
        election.shutdownNow();
        watchdog.shutdownNow();
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }
}
