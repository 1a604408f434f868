package io.steadfast.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The launcher's command line, parsed and validated.
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

    public static final int DEFAULT_ROUTER_PORT = 8080;
    public static final int DEFAULT_CHECKPOINT_PORT = 8082;
    public static final int DEFAULT_HOSTS = 3;
    public static final int DEFAULT_STANDBY_HOSTS = 1;
    public static final int MAX_HOSTS = 16;
    public static final int DEFAULT_DASHBOARD_PORT = 8090;
    public static final Path DEFAULT_TOPOLOGY = Path.of("examples", "word-count.json");
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(120);

    public static final String USAGE = """
            Usage: steadfast local [options]
            Starts the checkpoint-service (embedded store), a router, hosts and the ops dashboard as local processes,
            deploys a topology and shows its progress, its latest checkpoint and any recovery each second.
            Ctrl-C deletes the topology and stops every process.

            This is a demo and test cluster: hosts run with fault injection enabled (POST /api/v1/fault/kill halts
            a host), so never expose its ports. Kill a host from another terminal to watch a recovery:
              ./steadfast kill-host host-2 [--router-port N]

              --router-port N        router HTTP port (default %d)
              --checkpoint-port N    checkpoint-service HTTP port (default %d)
              --hosts N              number of hosts that run tasks, 1-%d (default %d)
              --standby-hosts N      more hosts kept free of tasks, for a failed host's tasks to recover onto
                                     (default %d; hosts + standby hosts at most %d)
              --replace-failed-hosts start a fresh host (next id, e.g. host-4) when a host process dies (the default)
              --no-replace-failed-hosts  leave a dead host dead
              --dashboard-port N     dashboard HTTP port (default %d)
              --no-dashboard         do not start the dashboard
              --topology FILE        topology spec to deploy (default %s)
              --no-deploy            only run the cluster; deploy nothing
              --exit-when-finished   stop the cluster and exit once every task is FINISHED (exit code 1 if one FAILED)
              --run-dir DIR          where the process logs go (default .steadfast/run/<timestamp>/)
              --startup-timeout S    seconds to wait for the router to be UP and every host LIVE (default %d)
              --help                 print this text
            """.formatted(DEFAULT_ROUTER_PORT, DEFAULT_CHECKPOINT_PORT, MAX_HOSTS, DEFAULT_HOSTS, DEFAULT_STANDBY_HOSTS, MAX_HOSTS,
            DEFAULT_DASHBOARD_PORT, DEFAULT_TOPOLOGY,
            DEFAULT_STARTUP_TIMEOUT.toSeconds());

    private static final List<String> OPTIONS = List.of("--router-port", "--checkpoint-port", "--hosts", "--standby-hosts",
            "--replace-failed-hosts", "--no-replace-failed-hosts", "--dashboard-port", "--no-dashboard",
            "--topology", "--no-deploy", "--exit-when-finished", "--run-dir", "--startup-timeout", "--help");

    public LaunchOptions {
        requirePort("--router-port", routerPort);
        requirePort("--checkpoint-port", checkpointPort);
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
        if (dashboard) {
            requirePort("--dashboard-port", dashboardPort);
            if (dashboardPort == routerPort) {
                throw new IllegalArgumentException("--router-port and --dashboard-port are both " + routerPort
                        + "; give them different ports");
            }
            if (dashboardPort == checkpointPort) {
                throw new IllegalArgumentException("--checkpoint-port and --dashboard-port are both " + checkpointPort
                        + "; give them different ports");
            }
        }
        if (exitWhenFinished && topology == null) {
            throw new IllegalArgumentException("--exit-when-finished needs a topology to finish; drop --no-deploy");
        }
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new IllegalArgumentException("--startup-timeout must be positive, was " + startupTimeout.toSeconds());
        }
    }

    /** True if the arguments ask for the usage text. */
    public static boolean wantsHelp(String... args) {
        return List.of(args).contains("--help") || List.of(args).contains("-h") || List.of(args).contains("help");
    }

    /**
     * Parses {@code --name value} and {@code --name=value} forms.
     *
     * @throws IllegalArgumentException naming the offending option and what to change
     */
    public static LaunchOptions parse(String... args) {
        int routerPort = DEFAULT_ROUTER_PORT;
        int checkpointPort = DEFAULT_CHECKPOINT_PORT;
        int hosts = DEFAULT_HOSTS;
        int standbyHosts = DEFAULT_STANDBY_HOSTS;
        Boolean replaceFailedHosts = null;
        Integer dashboardPort = null;
        boolean noDashboard = false;
        Path topology = null;
        boolean noDeploy = false;
        boolean exitWhenFinished = false;
        Path runDir = null;
        Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;

        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String arg = rest.remove(0);
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            Optional<String> inline = arg.contains("=") ? Optional.of(arg.substring(arg.indexOf('=') + 1)) : Optional.empty();
            switch (name) {
                case "--router-port" -> routerPort = integer(name, value(name, inline, rest));
                case "--checkpoint-port" -> checkpointPort = integer(name, value(name, inline, rest));
                case "--hosts" -> hosts = integer(name, value(name, inline, rest));
                case "--standby-hosts" -> standbyHosts = integer(name, value(name, inline, rest));
                case "--replace-failed-hosts", "--no-replace-failed-hosts" -> {
                    boolean replace = name.equals("--replace-failed-hosts") && flag(name, inline);
                    if (!replace) {
                        flag(name, inline);
                    }
                    if (replaceFailedHosts != null && replaceFailedHosts != replace) {
                        throw new IllegalArgumentException("--replace-failed-hosts and --no-replace-failed-hosts "
                                + "contradict each other; drop one");
                    }
                    replaceFailedHosts = replace;
                }
                case "--dashboard-port" -> dashboardPort = integer(name, value(name, inline, rest));
                case "--topology" -> topology = Path.of(value(name, inline, rest));
                case "--run-dir" -> runDir = Path.of(value(name, inline, rest));
                case "--startup-timeout" -> startupTimeout = Duration.ofSeconds(integer(name, value(name, inline, rest)));
                case "--no-dashboard" -> noDashboard = flag(name, inline);
                case "--no-deploy" -> noDeploy = flag(name, inline);
                case "--exit-when-finished" -> exitWhenFinished = flag(name, inline);
                default -> throw new IllegalArgumentException("Unknown option '" + arg + "'; valid options: "
                        + String.join(", ", OPTIONS));
            }
        }
        if (noDeploy && topology != null) {
            throw new IllegalArgumentException("--no-deploy and --topology " + topology + " contradict each other; drop one");
        }
        if (noDashboard && dashboardPort != null) {
            throw new IllegalArgumentException("--no-dashboard and --dashboard-port " + dashboardPort
                    + " contradict each other; drop one");
        }
        return new LaunchOptions(routerPort, checkpointPort, hosts, replaceFailedHosts == null || replaceFailedHosts,
                !noDashboard,
                dashboardPort != null ? dashboardPort : DEFAULT_DASHBOARD_PORT,
                noDeploy ? null : topology != null ? topology : DEFAULT_TOPOLOGY,
                exitWhenFinished, runDir, startupTimeout, standbyHosts);
    }

    public boolean deploy() {
        return topology != null;
    }

    private static String value(String name, Optional<String> inline, List<String> rest) {
        if (inline.isPresent()) {
            return inline.get();
        }
        if (rest.isEmpty() || rest.get(0).startsWith("--")) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return rest.remove(0);
    }

    private static boolean flag(String name, Optional<String> inline) {
        if (inline.isPresent()) {
            throw new IllegalArgumentException(name + " takes no value, was given '" + inline.get() + "'");
        }
        return true;
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, was '" + value + "'");
        }
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " must be a TCP port between 1 and 65535, was " + port);
        }
    }
}
