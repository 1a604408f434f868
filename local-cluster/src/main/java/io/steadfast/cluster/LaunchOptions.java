package io.steadfast.cluster;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What the launcher was asked to start, validated across options; {@link LocalCommand} reads it from the command
 * line, where each option's type, range and default are declared.
 *
 * @param replaceFailedHosts start a fresh host (next unused id) whenever a host process dies
 * @param topology the topology file to deploy, or null with {@code --no-deploy}
 * @param runDir where the logs go, or null for {@code .steadfast/run/<timestamp>/} under the repository root
 * @param standbyHosts hosts started beside {@code hosts} and kept free of tasks by the router, for a failed host's
 *                     tasks to be recovered onto (local recovery)
 */
public record LaunchOptions(int routerPort, int checkpointPort, int hosts, boolean replaceFailedHosts,
        boolean dashboard, int dashboardPort, @Nullable Path topology, boolean exitWhenFinished, @Nullable Path runDir,
        Duration startupTimeout, int standbyHosts) {

    /** The router port of {@code steadfast local}, and so the one {@code steadfast kill-host} asks by default. */
    public static final int DEFAULT_ROUTER_PORT = 8080;
    public static final int MAX_HOSTS = 16;

    /** @throws IllegalArgumentException naming the options that do not fit together and what to change */
    public LaunchOptions {
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
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("--startup-timeout must be positive, was " + startupTimeout);
        }
    }

    public boolean deploy() {
        return topology != null;
    }
}
