package io.steadfast.router.leadership;

import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How router replicas agree on the one that acts, prefix {@code steadfast.router.leader-election}. Read before the
 * router's application context exists ({@link RouterStartup}), so it is bound with a {@code Binder}, not scanned.
 *
 * @param mode {@code none}: this router acts alone, at once (one replica); {@code store}: the replicas share a lease
 *             document in the router's MongoDB ({@code spring.mongodb.uri}), which works wherever they share one
 *             (one machine, or any set of machines); {@code kubernetes}: a {@code coordination.k8s.io/v1} Lease
 * @param leaseName the lease's name (the MongoDB document's id, or the Lease object's name)
 * @param leaseDuration how long a contender must see the lease unchanged before it takes it over
 * @param renewDeadline how long the leader acts after the start of its last successful renewal; shorter than the
 *                      lease duration by at least the difference the replicas' clock rates may have, plus a store
 *                      call's latency: the leader stops (the process halts) before any contender can take over
 * @param retryPeriod how often the leader renews and contenders look at the lease
 * @param podName on Kubernetes, this router's pod: the leader labels it {@code steadfast.io/router-role=leader} so
 *                that the router Service routes to it alone
 * @param namespace on Kubernetes, the namespace of the Lease and the router pods; empty: the client's (the service
 *                  account's namespace in a pod)
 */
public record LeaderElectionProperties(
        @DefaultValue("none") String mode,
        @DefaultValue("steadfast-router") String leaseName,
        @DefaultValue("4s") Duration leaseDuration,
        @DefaultValue("3s") Duration renewDeadline,
        @DefaultValue("500ms") Duration retryPeriod,
        @Nullable String podName,
        @Nullable String namespace) {

    public static final String PREFIX = "steadfast.router.leader-election";

    /** How the replicas elect their leader. */
    public enum Mode { NONE, STORE, KUBERNETES }

    public LeaderElectionProperties {
        modeOf(mode);
        if (leaseName == null || leaseName.isBlank()) {
            throw new IllegalArgumentException(PREFIX + ".lease-name must not be blank");
        }
        requirePositive("lease-duration", leaseDuration);
        requirePositive("renew-deadline", renewDeadline);
        requirePositive("retry-period", retryPeriod);
        if (renewDeadline.compareTo(leaseDuration) >= 0) {
            throw new IllegalArgumentException(PREFIX + ".renew-deadline (" + renewDeadline + ") must be shorter than "
                    + PREFIX + ".lease-duration (" + leaseDuration + "): a leader must stop before a contender may"
                    + " take its lease over; e.g. 3s and 4s");
        }
        if (retryPeriod.multipliedBy(2).compareTo(renewDeadline) > 0) {
            throw new IllegalArgumentException(PREFIX + ".retry-period (" + retryPeriod + ") must be at most half of "
                    + PREFIX + ".renew-deadline (" + renewDeadline + "), so that a leader gets a second try to renew"
                    + " before it must stop; e.g. 500ms");
        }
        podName = podName == null || podName.isBlank() ? null : podName.strip();
        namespace = namespace == null || namespace.isBlank() ? null : namespace.strip();
    }

    public Mode electionMode() {
        return modeOf(mode);
    }

    private static Mode modeOf(String mode) {
        try {
            return Mode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(PREFIX + ".mode must be none, store or kubernetes, was '" + mode + "'");
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(PREFIX + "." + key + " must be positive, was " + value);
        }
    }
}
