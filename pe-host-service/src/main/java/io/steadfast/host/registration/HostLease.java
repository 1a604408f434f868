package io.steadfast.host.registration;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The lease this host holds from the router: how long it may run its tasks without a newer heartbeat answer. The
 * router grants its length at registration; each registration or heartbeat the router answered renews it from the
 * moment the request was <em>sent</em> (by this host's monotonic clock), never from when the answer came: the router
 * received it after that, and measures its own heartbeat timeout, which is longer, from then. So once the lease has
 * lapsed here, the router cannot have moved this host's tasks yet, and this host stops them first (see
 * {@code docs/design.md}, "Fencing").
 *
 * <p>A host holds no lease before its first registration (it runs no task the router placed) and after it fenced
 * itself, until it registers again. Thread-safe; {@link #holds} is a volatile read and a clock read, cheap enough
 * for every pass of the data plane's IO loop.
 */
public final class HostLease {

    private final LongSupplier nanoClock;
    private volatile long leaseNanos;
    /** Meaningful while {@code leaseNanos > 0}; compared as {@code now - validUntil < 0}, overflow-safe. */
    private volatile long validUntilNanos;
    private volatile long lastRenewedFromNanos;

    public HostLease() {
        this(System::nanoTime);
    }

    /** With an injected monotonic clock, for tests. */
    public HostLease(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** The reading of the monotonic clock to stamp a request with before it is sent. */
    public long now() {
        return nanoClock.getAsLong();
    }

    /** The router admitted a registration sent at {@code sentNanos} and grants leases of {@code length}. */
    public synchronized void granted(Duration length, long sentNanos) {
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("a lease must be positive, the router granted " + length);
        }
        leaseNanos = length.toNanos();
        validUntilNanos = sentNanos + leaseNanos;
        lastRenewedFromNanos = sentNanos;
    }

    /** The router answered a heartbeat sent at {@code sentNanos}: the lease runs until {@code sentNanos + length}. */
    public synchronized void renewed(long sentNanos) {
        if (leaseNanos == 0) {
            return; // revoked meanwhile: only a registration grants a lease again
        }
        if (sentNanos - validUntilNanos + leaseNanos > 0) {
            validUntilNanos = sentNanos + leaseNanos;
            lastRenewedFromNanos = sentNanos;
        }
    }

    /** No lease until the next registration: the host fenced itself. */
    public synchronized void revoked() {
        leaseNanos = 0;
    }

    /**
     * Whether this host may act for the tasks the router placed on it at {@code nowNanos}: it holds a lease that has
     * not lapsed, or none was ever granted (nothing runs that the router placed).
     */
    public boolean holds(long nowNanos) {
        return leaseNanos == 0 || nowNanos - validUntilNanos < 0;
    }

    /** Whether a lease was granted and has lapsed at {@code nowNanos}. */
    public boolean lapsed(long nowNanos) {
        return leaseNanos != 0 && nowNanos - validUntilNanos >= 0;
    }

    /** How long ago, at {@code nowNanos}, the request the lease was last renewed from was sent; for the log. */
    public Duration sinceRenewal(long nowNanos) {
        return Duration.ofNanos(nowNanos - lastRenewedFromNanos);
    }

    /** The lease's length; zero when none is held. */
    public Duration length() {
        return Duration.ofNanos(leaseNanos);
    }

    @Override
    public String toString() {
        long now = now();
        return leaseNanos == 0 ? "no lease" : "lease of " + TimeUnit.NANOSECONDS.toMillis(leaseNanos) + " ms, "
                + (lapsed(now) ? "lapsed " : "valid for ") + Math.abs(TimeUnit.NANOSECONDS.toMillis(validUntilNanos - now))
                + " ms";
    }
}
