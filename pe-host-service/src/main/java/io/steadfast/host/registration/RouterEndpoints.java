package io.steadfast.host.registration;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which router this host talks to: one of the configured router URLs ({@code steadfast.host.router-url}), or the
 * leader a standby router named. A router that cannot be reached, or a standby that knows no leader, moves the host to
 * the next configured URL; a named leader is followed until it fails. Thread-safe.
 */
public final class RouterEndpoints {

    private static final Logger LOG = LoggerFactory.getLogger(RouterEndpoints.class);

    private final List<URI> configured;
    private int next;
    private URI current;

    public RouterEndpoints(List<URI> configured) {
        if (configured.isEmpty()) {
            throw new IllegalArgumentException("steadfast.host.router-url names no router; give the router's URL, or"
                    + " the URLs of its replicas separated by commas");
        }
        this.configured = List.copyOf(configured);
        this.current = this.configured.get(0);
        this.next = 1 % this.configured.size();
    }

    /** The URL of the router to call now. */
    public synchronized URI current() {
        return current;
    }

    /** The first configured URL: the base every client of the router is built on. */
    public URI first() {
        return configured.get(0);
    }

    public boolean severalKnown() {
        return configured.size() > 1;
    }

    /** {@code standby} named {@code leader} as the router that leads: call it from now on. */
    public synchronized void follow(URI standby, URI leader) {
        if (Objects.equals(current, standby) && !leader.equals(current)) {
            LOG.info("Router at {} stands by; following the leader at {}", standby, leader);
            current = leader;
        }
    }

    /** {@code failed} could not be reached, or knows no leader: move on to the next configured router. */
    public synchronized void failed(URI failed) {
        if (Objects.equals(current, failed) && configured.size() > 1) {
            current = configured.get(next);
            if (current.equals(failed)) {
                next = (next + 1) % configured.size();
                current = configured.get(next);
            }
            next = (next + 1) % configured.size();
            LOG.info("Router at {} did not serve this host; trying {}", failed, current);
        }
    }
}
