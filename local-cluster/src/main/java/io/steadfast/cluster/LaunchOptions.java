package io.steadfast.cluster;

import java.nio.file.Path;
import io.steadfast.cluster.process.OperatorJars;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the launcher was asked to start, validated across options when built; {@link LocalCommand} reads it from the
 * command line, where each option's type, range and default are declared.
 */
public final class LaunchOptions {

    /** The router port of {@code steadfast local}, and so the one {@code steadfast kill-host} asks by default. */
    public static final int DEFAULT_ROUTER_PORT = 8080;
    public static final int MAX_HOSTS = 16;
    /** The most voter-services the launcher starts: each is a host's JVM, of a host's heap. */
    public static final int MAX_VOTERS = 8;
    /** The most router replicas a local cluster starts. */
    public static final int MAX_ROUTERS = 3;

    private final int routerPort;
    private final int checkpointPort;
    private final int hosts;
    private final int standbyHosts;
    private final int voters;
    private final int routers;
    private final boolean replaceFailedHosts;
    private final boolean dashboard;
    private final int dashboardPort;
    private final @Nullable Path topology;
    private final List<Path> operatorJars;
    private final boolean exitWhenFinished;
    private final @Nullable Path runDir;
    private final Duration startupTimeout;

    private LaunchOptions(Builder builder) {
        this.routerPort = builder.routerPort;
        this.checkpointPort = builder.checkpointPort;
        this.hosts = builder.hosts;
        this.standbyHosts = builder.standbyHosts;
        this.voters = builder.voters;
        this.routers = builder.routers;
        this.replaceFailedHosts = builder.replaceFailedHosts;
        this.dashboard = builder.dashboard;
        this.dashboardPort = builder.dashboardPort;
        this.topology = builder.topology;
        this.operatorJars = List.copyOf(builder.operatorJars);
        this.exitWhenFinished = builder.exitWhenFinished;
        this.runDir = builder.runDir;
        this.startupTimeout = Objects.requireNonNull(builder.startupTimeout, "startupTimeout");
        validate();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** @throws IllegalArgumentException naming the options that do not fit together and what to change */
    private void validate() {
        if (checkpointPort == routerPort) {
            throw new IllegalArgumentException("--router-port and --checkpoint-port are both " + routerPort
                    + "; give them different ports");
        }
        if (hosts < 1 || hosts > MAX_HOSTS) {
            throw new IllegalArgumentException("--hosts must be between 1 and " + MAX_HOSTS + ", was " + hosts);
        }
        if (standbyHosts < 0 || hosts + standbyHosts > MAX_HOSTS) {
            throw new IllegalArgumentException("--standby-hosts must be between 0 and " + (MAX_HOSTS - hosts)
                    + " (hosts + standby hosts at most " + MAX_HOSTS + "), was " + standbyHosts);
        }
        if (voters < 0 || voters > MAX_VOTERS) {
            throw new IllegalArgumentException("--voters must be between 0 and " + MAX_VOTERS + ", was " + voters);
        }
        if (routers < 1 || routers > MAX_ROUTERS) {
            throw new IllegalArgumentException("--routers must be between 1 and " + MAX_ROUTERS + ", was " + routers);
        }
        if (dashboard && dashboardPort == routerPort) {
            throw new IllegalArgumentException("--router-port and --dashboard-port are both " + routerPort
                    + "; give them different ports");
        }
        if (dashboard && dashboardPort == checkpointPort) {
            throw new IllegalArgumentException("--checkpoint-port and --dashboard-port are both " + checkpointPort
                    + "; give them different ports");
        }
        if (exitWhenFinished && topology == null) {
            throw new IllegalArgumentException("--exit-when-finished needs a topology to finish; drop --no-deploy");
        }
        new OperatorJars(operatorJars); // rejects a path that -Dloader.path cannot carry
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("--startup-timeout must be positive, was " + startupTimeout);
        }
    }

    public int routerPort() {
        return routerPort;
    }

    public int checkpointPort() {
        return checkpointPort;
    }

    public int hosts() {
        return hosts;
    }

    /**
     * Hosts started beside {@link #hosts()} and kept free of tasks by the router, for a failed host's tasks to be
     * recovered onto (local recovery).
     */
    public int standbyHosts() {
        return standbyHosts;
    }

    /**
     * The voter-services started beside the hosts, {@code voter-1} to {@code voter-n}: hosts of kind VOTER, which run
     * the vote tasks of N-version operators (and nothing else). With none, the router refuses a topology that has any.
     */
    public int voters() {
        return voters;
    }

    /** Router replicas: one leads, the others stand by with a lease in the embedded store. */
    public int routers() {
        return routers;
    }

    /** Whether a fresh host or voter (next unused id of its kind) is started whenever one's process dies. */
    public boolean replaceFailedHosts() {
        return replaceFailedHosts;
    }

    public boolean dashboard() {
        return dashboard;
    }

    public int dashboardPort() {
        return dashboardPort;
    }

    /** The topology file to deploy, or null with {@code --no-deploy}. */
    public @Nullable Path topology() {
        return topology;
    }

    /**
     * The jars of operator types given with {@code --operators}, for the router and every host to load; empty when
     * none were given, which means the default ({@link OperatorJars#givenOrDefault}).
     */
    public List<Path> operatorJars() {
        return operatorJars;
    }

    public boolean deploy() {
        return topology != null;
    }

    public boolean exitWhenFinished() {
        return exitWhenFinished;
    }

    /** Where the logs go, or null for {@code .steadfast/run/<timestamp>/} under the repository root. */
    public @Nullable Path runDir() {
        return runDir;
    }

    public Duration startupTimeout() {
        return startupTimeout;
    }

    /** Collects the options; {@link #build()} checks them across each other. */
    public static final class Builder {

        private int routerPort = DEFAULT_ROUTER_PORT;
        private int checkpointPort;
        private int hosts = 1;
        private int standbyHosts;
        private int voters;
        private int routers = 1;
        private boolean replaceFailedHosts;
        private boolean dashboard;
        private int dashboardPort;
        private @Nullable Path topology;
        private List<Path> operatorJars = List.of();
        private boolean exitWhenFinished;
        private @Nullable Path runDir;
        private @Nullable Duration startupTimeout;

        private Builder() {
        }

        public Builder routerPort(int port) {
            this.routerPort = port;
            return this;
        }

        public Builder checkpointPort(int port) {
            this.checkpointPort = port;
            return this;
        }

        public Builder hosts(int count) {
            this.hosts = count;
            return this;
        }

        public Builder standbyHosts(int count) {
            this.standbyHosts = count;
            return this;
        }

        public Builder routers(int count) {
            this.routers = count;
            return this;
        }

        public Builder voters(int count) {
            this.voters = count;
            return this;
        }

        public Builder replaceFailedHosts(boolean replace) {
            this.replaceFailedHosts = replace;
            return this;
        }

        public Builder dashboard(boolean start) {
            this.dashboard = start;
            return this;
        }

        public Builder dashboardPort(int port) {
            this.dashboardPort = port;
            return this;
        }

        /** The topology file to deploy; null deploys none. */
        public Builder topology(@Nullable Path file) {
            this.topology = file;
            return this;
        }

        /** Jars of operator types for the router and hosts to load; empty for the default. */
        public Builder operatorJars(List<Path> jars) {
            this.operatorJars = List.copyOf(jars);
            return this;
        }

        public Builder exitWhenFinished(boolean exit) {
            this.exitWhenFinished = exit;
            return this;
        }

        /** Where the logs go; null for the default under the repository root. */
        public Builder runDir(@Nullable Path dir) {
            this.runDir = dir;
            return this;
        }

        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = timeout;
            return this;
        }

        /** @throws IllegalArgumentException naming the options that do not fit together and what to change */
        public LaunchOptions build() {
            return new LaunchOptions(this);
        }
    }
}
