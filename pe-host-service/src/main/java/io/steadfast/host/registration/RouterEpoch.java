package io.steadfast.host.registration;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest leadership epoch of a router this host has heard from. A call or an answer of a lower epoch comes from
 * a router that has been deposed (it was frozen or cut off while another took over, and has not yet noticed): the
 * host neither obeys it nor takes its answer as a lease renewal. Thread-safe.
 */
public final class RouterEpoch {

    private final AtomicLong highest = new AtomicLong();

    /** Whether a message of {@code epoch} may be taken: it is the highest seen so far or above (then recorded). */
    public boolean admit(long epoch) {
        return highest.accumulateAndGet(epoch, Math::max) == epoch;
    }

    public long highest() {
        return highest.get();
    }
}
