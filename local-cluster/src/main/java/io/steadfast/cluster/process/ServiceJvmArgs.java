package io.steadfast.cluster.process;

import java.util.List;

/** The JVM arguments of each kind of process of a local cluster, the hosts the routers start included. */
final class ServiceJvmArgs {

    /**
     * Every process of the local cluster compiles with C1 only. The control-plane services handle a few hundred small
     * requests a second, where C2 keeps compiling for minutes after start-up and buys nothing. The hosts share the
     * machine with each other and with those services, and there C2's compilations (each host compiling its own copy
     * of the same code, again on every recovery and in every freshly started standby) cost more CPU than its faster
     * code saves: with C1 hosts a 32-task job keeps the cores less busy and recovers faster (figures in
     * docs/performance.md, "hosts C1-only"). A host on a machine of its own (the Helm chart's pods, the throughput
     * benchmarks) keeps the JVM's default, C2.
     */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    static final List<String> CHECKPOINT = List.of("-Xmx512m", C1_ONLY);
    static final List<String> ROUTER = List.of("-Xmx512m", C1_ONLY);
    /**
     * Hosts map their heap with transparent huge pages: a memory monitor that samples page access bits (such as
     * DAMON, which runs on our CI machines every 500 ms) otherwise stalls a busy host for tens of milliseconds.
     * The flag is harmless where THP is off.
     */
    static final List<String> HOST = List.of("-Xmx1g", "-XX:+UseTransparentHugePages", C1_ONLY);
    static final List<String> DASHBOARD = List.of("-Xmx256m", C1_ONLY);

    private ServiceJvmArgs() {
    }
}
