package io.steadfast.protocol.router;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * Which router a client talks to: one of the configured router URLs (the replicas'), or the leader a standby router
 * named ({@link RouterHeaders#LEADER}). A router that cannot be reached, or a standby that knows no leader, moves the
 * client to the next configured URL; a named leader is followed until it fails. Every client of the router API
 * (hosts, the launcher, the dashboard) follows the leader this way. Thread-safe.
 */
public final class RouterEndpoints {

    private final List<URI> configured;
    private int next;
    private URI current;

    public RouterEndpoints(List<URI> configured) {
        if (configured.isEmpty()) {
            throw new IllegalArgumentException("No router URL given; give the router's URL, or the URLs of its"
                    + " replicas separated by commas");
        }
        this.configured = List.copyOf(configured);
        this.current = this.configured.get(0);
        this.next = 1 % this.configured.size();
    }

    /** The URL of the router to call now. */
    public synchronized URI current() {
        return current;
    }

    /** The first configured URL. */
    public URI first() {
        return configured.get(0);
    }

    public List<URI> configured() {
        return configured;
    }

    public boolean severalKnown() {
        return configured.size() > 1;
    }

    /**
     * {@code standby} named {@code leader} as the router that leads: call it from now on.
     *
     * @return whether the client moved
     */
    public synchronized boolean follow(URI standby, URI leader) {
        if (Objects.equals(current, standby) && !leader.equals(current)) {
            current = leader;
            return true;
        }
        return false;
    }

    /**
     * {@code failed} could not be reached, or knows no leader: move on to the next configured router.
     *
     * @return whether the client moved
     */
    public synchronized boolean failed(URI failed) {
        if (!Objects.equals(current, failed) || configured.size() < 2) {
            return false;
        }
        current = configured.get(next);
        if (current.equals(failed)) {
            next = (next + 1) % configured.size();
            current = configured.get(next);
        }
        next = (next + 1) % configured.size();
        return true;
    }
}
