package io.steadfast.helm;

import java.util.List;

/**
 * The values the chart is rendered with, and what they mean for the rendered objects: the chart's defaults, and a
 * non-default file (src/test/resources/values-production.yaml) with an external MongoDB, three routers, an Ingress,
 * 8 + 2 hosts and more.
 */
enum ChartValues {

    DEFAULTS(null, 2, 3, 1, 1, false, new LeaderElection("4s", "3s", "500ms"), 7000, 10001),
    PRODUCTION("values-production.yaml", 3, 8, 2, 3, true, new LeaderElection("6s", "4s", "1s"), 7100, 20000);

    static final String RELEASE = "sf";
    static final String NAMESPACE = "streams";
    static final String FULLNAME = RELEASE + "-steadfast";

    private final String file;
    final int routers;
    final int activeHosts;
    final int standbyHosts;
    final int voters;
    final boolean externalMongoDb;
    final LeaderElection leaderElection;
    final int dataPort;
    final long runAsUser;

    ChartValues(String file, int routers, int activeHosts, int standbyHosts, int voters, boolean externalMongoDb,
                LeaderElection leaderElection, int dataPort, long runAsUser) {
        this.file = file;
        this.routers = routers;
        this.activeHosts = activeHosts;
        this.standbyHosts = standbyHosts;
        this.voters = voters;
        this.externalMongoDb = externalMongoDb;
        this.leaderElection = leaderElection;
        this.dataPort = dataPort;
        this.runAsUser = runAsUser;
    }

    /** The {@code -f FILE} arguments, or none for the defaults. */
    List<String> helmArguments() {
        if (file == null) {
            return List.of();
        }
        return List.of("--values", Repository.root().resolve("helm-chart-tests/src/test/resources").resolve(file)
                .toString());
    }

    /** {@code <fullname>-<component>}, the name of a component's objects. */
    static String nameOf(String component) {
        return FULLNAME + "-" + component;
    }

    record LeaderElection(String leaseDuration, String renewDeadline, String retryPeriod) {
    }
}
