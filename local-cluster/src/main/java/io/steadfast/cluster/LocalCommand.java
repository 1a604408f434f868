package io.steadfast.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code steadfast local}: reads the launcher's options and runs a {@link LocalCluster} with them. */
@Command(name = "local", sortOptions = false, abbreviateSynopsis = true,
        header = "Start a cluster of local processes and deploy a topology to it.",
        description = {
            "Starts the checkpoint-service (embedded store), a router, hosts, a voter-service (for the vote tasks of"
                    + " N-version operators) and the ops dashboard as local processes, deploys a topology and shows"
                    + " its progress, its hosts, its latest checkpoint and any recovery each second. Ctrl-C deletes"
                    + " the topology and stops every process.",
            "",
            "This is a demo and test cluster: hosts and voters run with fault injection enabled (POST"
                    + " /api/v1/fault/kill halts one), so never expose its ports. Kill a host or a voter from another"
                    + " terminal to watch a recovery:",
            "  ./steadfast kill-host host-2 [--router-port PORT]",
            "  ./steadfast kill-host voter-1 [--router-port PORT]",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every task FINISHED (with --exit-when-finished)",
            "1:a service did not start, or a task FAILED (with --exit-when-finished)",
            "2:invalid options",
            "130:stopped with Ctrl-C"})
final class LocalCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--router-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "router HTTP port (default: ${DEFAULT-VALUE})")
    private int routerPort = LaunchOptions.DEFAULT_ROUTER_PORT;

    @Option(names = "--checkpoint-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "checkpoint-service HTTP port (default: ${DEFAULT-VALUE})")
    private int checkpointPort = 8082;

    @Option(names = "--hosts", paramLabel = "N",
            description = "number of hosts that run tasks, 1-" + LaunchOptions.MAX_HOSTS + " (default: ${DEFAULT-VALUE})")
    private int hosts = 3;

    @Option(names = "--standby-hosts", paramLabel = "N",
            description = "more hosts kept free of tasks, for a failed host's tasks to recover onto; hosts + standby"
                    + " hosts at most " + LaunchOptions.MAX_HOSTS + " (default: ${DEFAULT-VALUE})")
    private int standbyHosts = 1;

    @Option(names = "--voters", paramLabel = "N",
            description = "number of voter-services, which run the vote tasks of N-version operators, 0-"
                    + LaunchOptions.MAX_VOTERS + "; with 0 the router refuses a topology that has any (default:"
                    + " ${DEFAULT-VALUE})")
    private int voters = 1;

    @Option(names = "--routers", paramLabel = "N",
            description = "router replicas, 1-" + LaunchOptions.MAX_ROUTERS + ": one leads through a lease in the"
                    + " embedded store, the others stand by and take over within seconds when it dies (default:"
                    + " ${DEFAULT-VALUE})")
    private int routers = 1;

    /* named in the negative form so that --replace-failed-hosts means true and --no-... false (picocli's rule for
       negatable options that default to true) */
    @Option(names = "--no-replace-failed-hosts", negatable = true,
            description = "let the router start the hosts and voters and replace one whose process dies by a fresh"
                    + " one (next id of its kind, e.g. host-5, voter-2), or start them here and leave a dead one"
                    + " dead (default: replace)")
    private boolean replaceFailedHosts = true;

    @Option(names = "--dashboard-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "dashboard HTTP port (default: ${DEFAULT-VALUE})")
    private int dashboardPort = 8090;

    @Option(names = "--no-dashboard", description = "do not start the dashboard")
    private boolean noDashboard;

    @Option(names = "--topology", paramLabel = "FILE",
            description = "topology spec to deploy (default: ${DEFAULT-VALUE}); a relative path is looked up in the"
                    + " working directory, then in the checkout")
    private Path topology = Path.of("examples", "word-count.json");

    @Option(names = "--operators", paramLabel = "JAR", converter = OperatorJarConverter.class,
            description = "a jar of operator types for the router and every host to load beside the built-in"
                    + " ones; repeat it for more jars; a relative path is taken from the working directory (default,"
                    + " when built: examples/target/" + RepoLayout.EXAMPLES_ARTIFACT + "-<version>.jar)")
    private List<Path> operators = new ArrayList<>();

    @Option(names = "--no-deploy", description = "only run the cluster; deploy nothing")
    private boolean noDeploy;

    @Option(names = "--exit-when-finished",
            description = "stop the cluster and exit once every task is FINISHED (exit code 1 if one FAILED)")
    private boolean exitWhenFinished;

    @Option(names = "--run-dir", paramLabel = "DIR",
            description = "where the process logs go (default: a new directory under .steadfast/run/ in the"
                    + " checkout, named for the time of the start)")
    private @Nullable Path runDir;

    @Option(names = "--startup-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "120s",
            description = "how long to wait for the router to be UP and every host LIVE: seconds, or a number with"
                    + " ms, s, m or h (default: ${DEFAULT-VALUE})")
    private Duration startupTimeout;

    /* read by the ./steadfast script, which builds before it starts this launcher; declared here so that the
       launcher accepts it and its help lists it */
    @Option(names = "--rebuild",
            description = "build with Maven first even if no jar is out of date (./steadfast builds a module by"
                    + " itself when its jar is missing or older than its sources)")
    private boolean rebuild;

    @Override
    public Integer call() {
        return new LocalCluster(launchOptions(), RepoLayout.fromWorkingDirectory(), System.out).run();
    }

    /**
     * The options as given, checked across each other.
     *
     * @throws ParameterException (a usage error) naming the options that do not fit together and what to change
     */
    LaunchOptions launchOptions() {
        ParseResult given = spec.commandLine().getParseResult();
        if (noDeploy && given.hasMatchedOption("--topology")) {
            throw usageError("--no-deploy and --topology " + topology + " contradict each other; drop one");
        }
        if (noDashboard && given.hasMatchedOption("--dashboard-port")) {
            throw usageError("--no-dashboard and --dashboard-port " + dashboardPort
                    + " contradict each other; drop one");
        }
        try {
            return LaunchOptions.builder().routerPort(routerPort).checkpointPort(checkpointPort).hosts(hosts)
                    .standbyHosts(standbyHosts).voters(voters).routers(routers).replaceFailedHosts(replaceFailedHosts)
                    .dashboard(!noDashboard)
                    .dashboardPort(dashboardPort).topology(noDeploy ? null : topology)
                    .operatorJars(operators).exitWhenFinished(exitWhenFinished).runDir(runDir)
                    .startupTimeout(startupTimeout).build();
        } catch (IllegalArgumentException e) {
            throw usageError(e.getMessage());
        }
    }

    private ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
