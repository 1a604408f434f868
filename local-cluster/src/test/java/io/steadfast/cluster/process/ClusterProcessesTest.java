package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.Service;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterProcessesTest {

    @TempDir
    Path runDir;

    @Test
    void firstHostIdIsHostOne() {
        assertThat(new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir).nextHostId()).isEqualTo(new HostId("host-1"));
    }

    @Test
    void votersAreNumberedApartFromHostsAndUnknownIdsHaveNoKind() {
        ClusterProcesses processes = new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir);

        assertThat(processes.nextHostId(HostKind.VOTER)).isEqualTo(new HostId("voter-1"));
        assertThat(ClusterProcesses.hostId(HostKind.VOTER, 3)).isEqualTo(new HostId("voter-3"));
        assertThat(ClusterProcesses.hostId(HostKind.PE, 3)).isEqualTo(new HostId("host-3"));
        assertThat(processes.kindOf(new HostId("router"))).isEmpty();
    }

    @Test
    void refusesToStartAVoterBeforeTheRouter() {
        assertThatThrownBy(() -> new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir)
                .startHost(new HostId("voter-1"), HostKind.VOTER))
                .hasMessageContaining("Start the router before host voter-1");
    }

    @Test
    void refusesToStartTheRouterBeforeTheCheckpointService() {
        assertThatThrownBy(() -> new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir).startRouter(1))
                .hasMessageContaining("Start the checkpoint-service before the router");
    }

    @Test
    void startsTheRouterAndEveryHostWithTheOperatorJarsAndOtherProcessesWithout(@TempDir Path checkout)
            throws IOException {
        RepoLayout layout = checkoutWithUnrunnableJars(checkout);
        OperatorJars jars = new OperatorJars(List.of(checkout.resolve("a.jar"), checkout.resolve("b.jar")));
        String loaderPath = "-Dloader.path=" + checkout.resolve("a.jar") + "," + checkout.resolve("b.jar");

        try (ClusterProcesses processes = new ClusterProcesses(layout, runDir, jars)) {
            processes.startCheckpointService(FreePort.pick());
            processes.startRouter(FreePort.pick());
            processes.startHost(new HostId("host-1"));
            processes.startHost(new HostId("host-2"));
            processes.startDashboard(FreePort.pick());

            assertThat(processes.router().orElseThrow().spec().jvmArgs()).contains("-Xmx512m").endsWith(loaderPath);
            for (HostId host : processes.hostIds()) {
                assertThat(processes.host(host).orElseThrow().spec().jvmArgs()).contains("-Xmx1g").endsWith(loaderPath);
            }
            assertThat(processes.checkpointService().orElseThrow().spec().jvmArgs()).noneMatch(arg -> arg.contains("loader"));
            assertThat(processes.dashboard().orElseThrow().spec().jvmArgs()).noneMatch(arg -> arg.contains("loader"));
            assertThat(Files.readString(runDir.resolve("router.log"))).as("the command line the router was started with")
                    .contains(loaderPath + " -jar " + layout.jar(Service.ROUTER));
        }
    }

    @Test
    void withoutOperatorJarsTheRouterGetsNoLoaderPath(@TempDir Path checkout) throws IOException {
        RepoLayout layout = checkoutWithUnrunnableJars(checkout);

        try (ClusterProcesses processes = new ClusterProcesses(layout, runDir, OperatorJars.none())) {
            processes.startCheckpointService(FreePort.pick());
            processes.startRouter(FreePort.pick());

            assertThat(processes.router().orElseThrow().spec().jvmArgs()).noneMatch(arg -> arg.contains("loader"));
        }
    }

    /** A checkout whose service jars are empty files: java starts and exits at once, after the command is logged. */
    private static RepoLayout checkoutWithUnrunnableJars(Path checkout) throws IOException {
        Files.createDirectories(checkout.resolve("examples"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>");
        RepoLayout layout = RepoLayout.find(checkout);
        for (Service service : Service.values()) {
            Files.createDirectories(layout.jar(service).getParent());
            Files.writeString(layout.jar(service), "");
        }
        return layout;
    }
}
