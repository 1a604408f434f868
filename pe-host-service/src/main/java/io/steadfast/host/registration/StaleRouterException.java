package io.steadfast.host.registration;

import java.io.IOException;

/**
 * An answer from a router of a lower leadership epoch than this host has seen: a deposed leader. Taken as a failed
 * call (an {@link IOException}, so that the clients' callers treat it as an unreachable router).
 */
public final class StaleRouterException extends IOException {

    public StaleRouterException(String message) {
        super(message);
    }
}
