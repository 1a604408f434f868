package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.cluster.process.FreePort;
import io.steadfast.cluster.process.LeftOverHosts;
import io.steadfast.cluster.process.RunDirMarker;
import io.steadfast.cluster.process.StandInHosts;
import io.steadfast.protocol.router.LeaderView;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hosts a router started outlive it when it is killed (SIGKILL: a crash, or the end of its shutdown grace on a
 * loaded machine), registered or still starting, whether or not another router took them over. Stopping the cluster
 * as Ctrl-C does ({@link ClusterProcesses#stopAll()}, from {@link LocalCluster}'s shutdown hook) stops them too, found
 * by the run directory on their command lines, while a host of another local cluster on the machine (another run
 * directory; a stand-in) runs on. Real processes, with the launcher's router settings
 * ({@link ClusterProcesses#routerStartedHosts}). Skipped if the jars are not built.
 */
@Timeout(300)
class KilledRouterHostsIT {

    private static final Duration STARTUP = Duration.ofSeconds(120);

    private final RepoLayout layout = RepoLayout.fromWorkingDirectory();
    private Process anotherClustersHost;

    @AfterEach
    void killStandIn() {
        if (anotherClustersHost != null) {
            anotherClustersHost.destroyForcibly();
        }
    }

    @Test
    void stoppingTheClusterStopsTheHostsAKilledRouterWasStillStartingAndNoOtherClustersHost() {
        assumeJarsBuilt();
        try (ClusterProcesses processes = new ClusterProcesses(layout, layout.e2eRunDir("killed-router-hosts"))) {
            anotherClustersHost = StandInHosts.start(new RunDirMarker(processes.runDir().resolveSibling(
                    processes.runDir().getFileName() + "-another")), "host-1");
            ClusterStartup startup = startup(processes);
            startup.startCheckpointServiceOnFreePort();
            int port = FreePort.pick();
            startup.startRouter(port, processes.routerStartedHosts(2, 0, List.of(routerUrl(port))));
            LeftOverHosts hosts = new LeftOverHosts(new RunDirMarker(processes.runDir()));
            await("the router's two hosts started").atMost(STARTUP).pollInterval(Duration.ofMillis(50))
                    .until(() -> hosts.find().size() == 2);

            processes.killRouter(); // while its hosts start: none has registered yet
            List<ProcessHandle> orphans = hosts.find();
            List<LeftOverHosts.Stopped> stopped = processes.stopAll();

            assertThat(stopped).extracting(LeftOverHosts.Stopped::name).containsExactlyInAnyOrder("host-1", "host-2");
            assertThat(orphans).hasSize(2).noneMatch(ProcessHandle::isAlive);
            assertThat(hosts.find()).isEmpty();
            assertThat(anotherClustersHost.isAlive()).as("the host of another run directory").isTrue();
        }
    }

    @Test
    void stoppingTheClusterStopsTheHostsOfALeaderKilledEarlierThatTheNextLeaderTookOver() {
        assumeJarsBuilt();
        try (ClusterProcesses processes = new ClusterProcesses(layout, layout.e2eRunDir("killed-leader-hosts"))) {
            ClusterStartup startup = startup(processes);
            startup.startCheckpointServiceOnFreePort();
            List<Integer> ports = twoFreePorts();
            RouterClient leader = startup.startRouters(ports, processes.routerStartedHosts(2, 0,
                    ports.stream().map(KilledRouterHostsIT::routerUrl).toList()));
            startup.awaitRouterStartedHosts(leader, HostKind.PE, 2);
            LeftOverHosts hosts = new LeftOverHosts(new RunDirMarker(processes.runDir()));
            List<ProcessHandle> firstLeadersHosts = hosts.find();

            processes.killRouter(0);
            RouterClient next = new RouterClient(routerUrl(ports.get(1)));
            await("the second router leads").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> next.leader().role().equals(LeaderView.LEADER));
            List<LeftOverHosts.Stopped> stopped = processes.stopAll();

            assertThat(firstLeadersHosts).hasSize(2).noneMatch(ProcessHandle::isAlive);
            assertThat(stopped).extracting(LeftOverHosts.Stopped::name).contains("host-1", "host-2");
            assertThat(hosts.find()).isEmpty();
        }
    }

    private void assumeJarsBuilt() {
        List<Path> missing = layout.missingJars(List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST));
        assumeThat(missing).as("service jars not built: %s; run %s", missing, RepoLayout.BUILD_COMMAND).isEmpty();
    }

    private static ClusterStartup startup(ClusterProcesses processes) {
        return new ClusterStartup(processes, STARTUP, line -> System.out.println("[e2e] " + line));
    }

    private static List<Integer> twoFreePorts() {
        int first = FreePort.pick();
        int second = FreePort.pick();
        return second == first ? twoFreePorts() : List.of(first, second);
    }

    private static URI routerUrl(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }
}
