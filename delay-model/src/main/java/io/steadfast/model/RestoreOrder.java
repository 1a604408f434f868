package io.steadfast.model;

/** How the snapshot fetches of a recovery overlap. */
public enum RestoreOrder {

    /** One task after another across the whole recovery: the checkpoint store's bandwidth is the limit. */
    SERIAL,

    /**
     * Hosts in parallel, each host's tasks one after another: each host's own link is the limit. The recovery
     * takes as long as its slowest host.
     */
    PER_HOST
}
