package io.steadfast.cluster;

/** The services the local cluster starts, each a Spring Boot jar built by its own module. */
public enum Service {
    CHECKPOINT("checkpoint-service"),
    ROUTER("router-service"),
    HOST("pe-host-service"),
    VOTER("voter-service"),
    DASHBOARD("ops-dashboard");

    private final String module;

    Service(String module) {
        this.module = module;
    }

    /** The Maven module (and artifact id) that builds this service's jar. */
    public String module() {
        return module;
    }
}
