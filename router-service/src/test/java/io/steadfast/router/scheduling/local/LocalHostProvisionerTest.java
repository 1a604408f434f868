package io.steadfast.router.scheduling.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.scheduling.SchedulingMode;
import io.steadfast.router.scheduling.SchedulingProperties;
import io.steadfast.runtime.plan.HostId;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The router's host processes on this machine, with real child processes: {@link StandInHost} JVMs, which start and
 * never register, as a host does in its first seconds.
 */
@Timeout(60)
class LocalHostProvisionerTest {

    private static final Duration CHILDREN_START = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, Clock.systemUTC(),
            Duration.ofMinutes(1));
    private LocalHostProvisioner provisioner;

    @AfterEach
    void closeProvisioner() {
        if (provisioner != null) {
            provisioner.close();
        }
    }

    @Test
    void namesItsAbsoluteRunDirectoryOnTheCommandLineOfEveryHostItStarts() throws IOException {
        Path runDir = Files.createDirectories(dir.resolve("runs")).resolve("..").resolve("run");
        provisioner = provisioner(2, runDir);

        provisioner.start();

        String marker = "-D" + LocalHostProvisioner.RUN_DIR_PROPERTY + "=" + dir.resolve("run").toAbsolutePath()
                .normalize();
        assertThat(awaitChildren(2)).allSatisfy(child -> assertThat(child.info().arguments())
                .hasValueSatisfying(args -> assertThat(args).contains(marker)));
    }

    @Test
    void closeStopsTheHostsItStartedThatNeverRegistered() {
        provisioner = provisioner(2, dir.resolve("run"));
        provisioner.start();
        List<ProcessHandle> starting = awaitChildren(2);

        provisioner.close();

        assertThat(starting).noneMatch(ProcessHandle::isAlive);
        assertThat(provisioner.runningChildren()).isEmpty();
    }

    @Test
    void startsNoHostOnceClosed() {
        provisioner = provisioner(1, dir.resolve("run"));
        provisioner.close();

        provisioner.start();

        await("no host started").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> provisioner.runningChildren().isEmpty() && children().isEmpty());
    }

    private LocalHostProvisioner provisioner(int peHosts, Path runDir) {
        SchedulingProperties settings = new SchedulingProperties(SchedulingMode.LOCAL, peHosts, 0,
                new SchedulingProperties.Kubernetes("steadfast-pe-host", "steadfast-voter", null,
                        Duration.ofSeconds(30), Duration.ofSeconds(5)),
                new SchedulingProperties.Local(StandInHost.jar(dir), null, List.of("-Xmx32m",
                        "-XX:TieredStopAtLevel=1"), runDir, null, null, null, null, Duration.ofSeconds(10),
                        Duration.ofMillis(100)));
        return new LocalHostProvisioner(settings, () -> "http://127.0.0.1:1", URI.create("http://127.0.0.1:2"),
                hosts, detector, Clock.systemUTC(), Duration.ZERO);
    }

    /** Waits until the provisioner runs {@code count} hosts, and returns their processes. */
    private List<ProcessHandle> awaitChildren(int count) {
        await("hosts started").atMost(CHILDREN_START).until(() -> provisioner.runningChildren().size() == count
                && children().size() == count);
        assertThat(provisioner.runningChildren()).extracting(HostId::value).allMatch(id -> id.startsWith("host-"));
        return children();
    }

    /** This JVM's child processes started from this test's stand-in jar. */
    private List<ProcessHandle> children() {
        String jar = dir.resolve("stand-in-host.jar").toString();
        return ProcessHandle.current().children().filter(child -> child.info().arguments()
                .map(args -> List.of(args).contains(jar)).orElse(false)).toList();
    }
}
