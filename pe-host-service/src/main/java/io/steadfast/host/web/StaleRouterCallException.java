package io.steadfast.host.web;

import io.steadfast.protocol.router.RouterHeaders;

/**
 * A call from a router of a lower leadership epoch than this host has heard from: a deposed leader that still runs.
 * Refused with 409, reason {@value RouterHeaders#STALE_ROUTER}.
 */
final class StaleRouterCallException extends RuntimeException {

    private final long epoch;
    private final long highest;

    StaleRouterCallException(long epoch, long highest) {
        super("This host follows the router of leadership epoch " + highest + "; a call of epoch " + epoch
                + " comes from a router that has been deposed and is refused");
        this.epoch = epoch;
        this.highest = highest;
    }

    long epoch() {
        return epoch;
    }

    long highest() {
        return highest;
    }
}
