package io.steadfast.router.scheduling;

/** Who starts the hosts ({@code steadfast.router.scheduling.mode}). */
public enum SchedulingMode {
    /** Someone else (the local launcher, an operator, a script): the router only uses the hosts that register. */
    NONE,
    /** The router starts host processes on its own machine. */
    LOCAL,
    /** The router keeps the hosts' pods and StatefulSets through the Kubernetes API. */
    KUBERNETES
}
