package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** With {@link StandInHosts}: real processes, each with a run directory's marker and a host id on its command line. */
@Timeout(60)
@EnabledOnOs({OS.LINUX, OS.MAC})
class LeftOverHostsTest {

    @TempDir
    Path dir;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killStandIns() {
        started.forEach(Process::destroyForcibly);
    }

    private Process started(Process standIn) {
        started.add(standIn);
        return standIn;
    }

    /** Whether the stand-in ended; this JVM, its parent, learns of it (reaps it) on a thread of its own. */
    private static boolean exited(Process standIn) throws InterruptedException {
        return standIn.waitFor(10, TimeUnit.SECONDS);
    }

    @Test
    void stopsEveryProcessOfItsRunDirectoryAndNoneOfAnother() throws InterruptedException {
        RunDirMarker ours = new RunDirMarker(dir.resolve("run"));
        RunDirMarker another = new RunDirMarker(dir.resolve("run-2"));
        Process host1 = started(StandInHosts.start(ours, "host-1"));
        Process voter1 = started(StandInHosts.start(ours, "voter-1"));
        Process otherHost1 = started(StandInHosts.start(another, "host-1"));

        List<LeftOverHosts.Stopped> stopped = new LeftOverHosts(ours).stop(Duration.ofSeconds(10));

        assertThat(stopped).extracting(LeftOverHosts.Stopped::name).containsExactlyInAnyOrder("host-1", "voter-1");
        assertThat(stopped).extracting(LeftOverHosts.Stopped::pid)
                .containsExactlyInAnyOrder(host1.pid(), voter1.pid());
        assertThat(stopped).noneMatch(LeftOverHosts.Stopped::killed);
        assertThat(exited(host1) && exited(voter1)).isTrue();
        assertThat(otherHost1.isAlive()).as("the host of another run directory").isTrue();
        assertThat(new LeftOverHosts(another).find()).extracting(ProcessHandle::pid).containsExactly(otherHost1.pid());
    }

    @Test
    void killsAProcessThatIgnoresTheRequestToStopOnceTheGraceIsOver() throws InterruptedException {
        RunDirMarker ours = new RunDirMarker(dir.resolve("run"));
        Process deaf = started(StandInHosts.startIgnoringSigterm(ours, "host-3"));

        List<LeftOverHosts.Stopped> stopped = new LeftOverHosts(ours).stop(Duration.ofMillis(500));

        assertThat(stopped).singleElement().satisfies(host -> {
            assertThat(host.describe()).isEqualTo("host-3 (pid " + deaf.pid() + ", killed)");
            assertThat(host.killed()).isTrue();
        });
        assertThat(exited(deaf)).isTrue();
    }

    @Test
    void stopsNothingWhenNoProcessCarriesItsMarker() {
        started(StandInHosts.start(new RunDirMarker(dir.resolve("run-2")), "host-1"));

        assertThat(new LeftOverHosts(new RunDirMarker(dir.resolve("run"))).stop(Duration.ofSeconds(1))).isEmpty();
    }
}
