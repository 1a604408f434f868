package io.steadfast.runtime.plan;

/**
 * What a host runs: the router places each task only on hosts of the kind it needs ({@link TaskSpec#hostKind()}).
 * A host names its kind when it registers; a host that names none is a {@link #PE} host.
 */
public enum HostKind {
    /** A pe-host-service: runs every task but the vote tasks. */
    PE("pe-host-service"),
    /** A voter-service: runs the vote tasks of N-version operators, and nothing else. */
    VOTER("voter-service");

    private final String service;

    HostKind(String service) {
        this.service = service;
    }

    /** The service that runs hosts of this kind, for messages that tell people what to start. */
    public String service() {
        return service;
    }
}
