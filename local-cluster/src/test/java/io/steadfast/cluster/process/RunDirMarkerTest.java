package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class RunDirMarkerTest {

    private static final RunDirMarker MARKER = new RunDirMarker(Path.of("/work/.steadfast/run/20261204-2100"));

    @Test
    void isOnAHostStartedForItsRunDirectory() {
        assertThat(MARKER.isOn(host("-Dsteadfast.local.run-dir=/work/.steadfast/run/20261204-2100"))).isTrue();
    }

    @Test
    void isNotOnAHostOfAnotherRunDirectoryThatItsOwnNameBegins() {
        assertThat(MARKER.isOn(host("-Dsteadfast.local.run-dir=/work/.steadfast/run/20261204-21001"))).isFalse();
        assertThat(MARKER.isOn(host("-Dsteadfast.local.run-dir=/work/.steadfast/run"))).isFalse();
    }

    @Test
    void isNotOnTheRouterWhoseSettingNamesTheRunDirectory() {
        assertThat(MARKER.isOn(List.of("/usr/bin/java", "-jar", "router-service.jar",
                "--steadfast.router.scheduling.local.run-dir=/work/.steadfast/run/20261204-2100"))).isFalse();
    }

    @Test
    void namesTheRunDirectoryAbsoluteAndNormalised() {
        RunDirMarker relative = new RunDirMarker(Path.of("runs", "..", "run"));

        assertThat(relative.argument()).isEqualTo("-Dsteadfast.local.run-dir=" + Path.of("run").toAbsolutePath());
    }

    @Test
    void isFoundInACommandLineCutShortWhenItsArgumentsAreUnknown() {
        String cut = "/usr/bin/java -Dsteadfast.local.run-dir=/work/.steadfast/run/20261204-2100 -Xmx1g -Dloader.pa";
        String other = "/usr/bin/java -Dsteadfast.local.run-dir=/work/.steadfast/run/20261204-21001 -Xmx1g -Dloader";

        assertThat(MARKER.isOn(new Info(null, cut))).isTrue();
        assertThat(MARKER.isOn(new Info(null, other))).isFalse();
        assertThat(MARKER.isOn(new Info(null, null))).isFalse();
    }

    private static Info host(String marker) {
        List<String> arguments = List.of(marker, "-Xmx1g", "-jar", "pe-host-service.jar", "--steadfast.host.id=host-1");
        return new Info(arguments.toArray(String[]::new), "/usr/bin/java " + String.join(" ", arguments));
    }

    /** A process as the process table shows it: its arguments, or only its command line, or neither. */
    private record Info(String @Nullable [] args, @Nullable String line) implements ProcessHandle.Info {

        @Override
        public Optional<String> command() {
            return Optional.of("/usr/bin/java");
        }

        @Override
        public Optional<String> commandLine() {
            return Optional.ofNullable(line);
        }

        @Override
        public Optional<String[]> arguments() {
            return Optional.ofNullable(args);
        }

        @Override
        public Optional<Instant> startInstant() {
            return Optional.empty();
        }

        @Override
        public Optional<Duration> totalCpuDuration() {
            return Optional.empty();
        }

        @Override
        public Optional<String> user() {
            return Optional.empty();
        }
    }
}
