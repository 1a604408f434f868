package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

class LocalCommandTest {

    @Test
    void defaultsToThreeHostsDashboardAndWordCount() {
        LaunchOptions options = parse();

        assertThat(options.routerPort()).isEqualTo(8080);
        assertThat(options.checkpointPort()).isEqualTo(8082);
        assertThat(options.hosts()).isEqualTo(3);
        assertThat(options.replaceFailedHosts()).isTrue();
        assertThat(options.dashboard()).isTrue();
        assertThat(options.dashboardPort()).isEqualTo(8090);
        assertThat(options.topology()).isEqualTo(Path.of("examples", "word-count.json"));
        assertThat(options.deploy()).isTrue();
        assertThat(options.exitWhenFinished()).isFalse();
        assertThat(options.runDir()).isNull();
        assertThat(options.startupTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(options.standbyHosts()).as("one warm standby for local recovery").isEqualTo(1);
        assertThat(options.voters()).as("one voter-service, for the vote tasks of N-version operators").isEqualTo(1);
    }

    @Test
    void takesVotersFromNoneToTheLimit() {
        assertThat(parse("--voters", "0").voters()).as("for topologies without N-version operators").isZero();
        assertThat(parse("--voters=3").voters()).isEqualTo(3);
        assertThatThrownBy(() -> parse("--voters", "9")).isInstanceOf(ParameterException.class)
                .hasMessageContaining("--voters must be between 0 and 8, was 9");
        assertThatThrownBy(() -> parse("--voters", "-1")).hasMessageContaining("was -1");
        assertThatThrownBy(() -> parse("--voters", "two")).hasMessageContaining("'two' is not an int");
    }

    @Test
    void takesStandbyHostsWithinTheHostLimit() {
        assertThat(parse("--standby-hosts", "0").standbyHosts()).isZero();
        assertThat(parse("--hosts=4", "--standby-hosts=2").standbyHosts()).isEqualTo(2);
        assertThatThrownBy(() -> parse("--hosts", "15", "--standby-hosts", "2"))
                .hasMessageContaining("--standby-hosts must be between 0 and 1").hasMessageContaining("was 2");
        assertThatThrownBy(() -> parse("--standby-hosts", "-1")).hasMessageContaining("was -1");
    }

    @Test
    void acceptsSeparateAndInlineValues() {
        LaunchOptions options = parse("--router-port", "9000", "--checkpoint-port=9002", "--hosts=5",
                "--no-replace-failed-hosts", "--dashboard-port=9001",
                "--topology", "examples/windowed-sum.json", "--exit-when-finished", "--run-dir=/tmp/r",
                "--startup-timeout", "30");

        assertThat(options.routerPort()).isEqualTo(9000);
        assertThat(options.checkpointPort()).isEqualTo(9002);
        assertThat(options.hosts()).isEqualTo(5);
        assertThat(options.replaceFailedHosts()).isFalse();
        assertThat(options.dashboardPort()).isEqualTo(9001);
        assertThat(options.topology()).isEqualTo(Path.of("examples/windowed-sum.json"));
        assertThat(options.exitWhenFinished()).isTrue();
        assertThat(options.runDir()).isEqualTo(Path.of("/tmp/r"));
        assertThat(options.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void replaceFailedHostsIsOnByDefaultAndCanBeSaidExplicitly() {
        assertThat(parse("--replace-failed-hosts").replaceFailedHosts()).isTrue();
        assertThat(parse("--no-replace-failed-hosts").replaceFailedHosts()).isFalse();
    }

    @Test
    void takesStartupTimeoutAsSecondsOrWithAUnit() {
        assertThat(parse("--startup-timeout", "90s").startupTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(parse("--startup-timeout=2m").startupTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(parse("--startup-timeout=PT45S").startupTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThatThrownBy(() -> parse("--startup-timeout", "soon"))
                .hasMessageContaining("'soon' is not a duration");
        assertThatThrownBy(() -> parse("--startup-timeout", "0")).hasMessageContaining("--startup-timeout must be positive");
    }

    @Test
    void noDeployLeavesNoTopology() {
        LaunchOptions options = parse("--no-deploy", "--no-dashboard");

        assertThat(options.deploy()).isFalse();
        assertThat(options.topology()).isNull();
        assertThat(options.dashboard()).isFalse();
    }

    @Test
    void takesOperatorJarsRepeatedAsAbsolutePathsAndNoneByDefault(@TempDir Path dir) throws IOException {
        Path first = Files.writeString(dir.resolve("first.jar"), "jar");
        Path second = Files.writeString(dir.resolve("second.jar"), "jar");

        assertThat(parse().operatorJars()).as("empty: the default, the examples jar if built").isEmpty();
        assertThat(parse("--operators", first.toString(), "--operators=" + second).operatorJars())
                .containsExactly(first, second);
        assertThat(parse("--operators", Path.of("").toAbsolutePath().relativize(first).toString()).operatorJars())
                .as("relative to the working directory").containsExactly(first);
    }

    @Test
    void aMissingOperatorJarIsAUsageErrorBeforeAnythingStarts(@TempDir Path dir) {
        CommandRun run = CommandRun.of("local", "--operators", dir.resolve("nowhere.jar").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Invalid value for option '--operators' (JAR): no jar at " + dir.resolve("nowhere.jar"))
                .contains("examples/target/steadfast-examples-<version>.jar");
        assertThat(run.out()).isEmpty();
        assertThatThrownBy(() -> parse("--operators", dir.toString())).as("a directory is not a jar")
                .hasMessageContaining("no jar at " + dir);
    }

    @Test
    void anOperatorJarWhosePathHasACommaIsAUsageError(@TempDir Path dir) throws IOException {
        Path jar = Files.writeString(dir.resolve("a,b.jar"), "jar");

        assertThatThrownBy(() -> parse("--operators", jar.toString())).isInstanceOf(ParameterException.class)
                .hasMessageContaining("has a comma");
    }

    @Test
    void rejectsUnknownOptionSuggestingTheNearestOne() {
        CommandRun run = CommandRun.of("local", "--host", "2");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'--host'", "--hosts", "./steadfast local --help");
    }

    @Test
    void rejectsHostCountOutsideRange() {
        assertThatThrownBy(() -> parse("--hosts", "0")).hasMessageContaining("--hosts must be between 1 and 16, was 0");
        assertThatThrownBy(() -> parse("--hosts", "17")).hasMessageContaining("was 17");
    }

    @Test
    void rejectsNonNumericAndMissingValues() {
        assertThatThrownBy(() -> parse("--router-port", "http"))
                .hasMessageContaining("--router-port").hasMessageContaining("'http' is not a TCP port");
        assertThatThrownBy(() -> parse("--hosts", "many")).hasMessageContaining("'many' is not an int");
        assertThatThrownBy(() -> parse("--hosts")).hasMessageContaining("Missing required parameter for option '--hosts'");
        assertThatThrownBy(() -> parse("--topology", "--no-dashboard"))
                .hasMessageContaining("Expected parameter for option '--topology'");
    }

    @Test
    void rejectsPortsOutOfRangeOrEqual() {
        assertThatThrownBy(() -> parse("--router-port", "70000")).hasMessageContaining("70000 is not a TCP port")
                .hasMessageContaining("from 1 to 65535");
        assertThatThrownBy(() -> parse("--dashboard-port", "0")).hasMessageContaining("0 is not a TCP port");
        assertThatThrownBy(() -> parse("--router-port", "9000", "--dashboard-port", "9000"))
                .hasMessageContaining("both 9000");
        assertThatThrownBy(() -> parse("--checkpoint-port", "8080"))
                .hasMessageContaining("--router-port and --checkpoint-port are both 8080");
        assertThatThrownBy(() -> parse("--checkpoint-port", "8090"))
                .hasMessageContaining("--checkpoint-port and --dashboard-port are both 8090");
    }

    @Test
    void allowsSameDashboardPortWhenDashboardIsOff() {
        assertThat(parse("--router-port", "8090", "--no-dashboard").routerPort()).isEqualTo(8090);
    }

    @Test
    void rejectsContradictoryOptions() {
        assertThatThrownBy(() -> parse("--no-deploy", "--topology", "x.json")).hasMessageContaining("contradict");
        assertThatThrownBy(() -> parse("--no-dashboard", "--dashboard-port", "9000")).hasMessageContaining("contradict");
        assertThatThrownBy(() -> parse("--no-deploy", "--exit-when-finished")).hasMessageContaining("drop --no-deploy");
        assertThatThrownBy(() -> parse("--replace-failed-hosts", "--no-replace-failed-hosts"))
                .hasMessageContaining("should be specified only once");
    }

    @Test
    void rejectsValueForFlag() {
        assertThatThrownBy(() -> parse("--no-deploy=yes")).hasMessageContaining("'yes' is not a boolean");
    }

    @Test
    void acceptsRebuildWhichTheScriptActsOn() {
        assertThat(parse("--rebuild").hosts()).isEqualTo(3);
    }

    @Test
    void invalidValueIsAUsageErrorWithExitCodeTwoAndNoClusterStarted() {
        CommandRun run = CommandRun.of("local", "--router-port", "70000");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Invalid value for option '--router-port': 70000 is not a TCP port")
                .contains("Run ./steadfast local --help for the options.")
                .doesNotContain("Usage:");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void optionsThatDoNotFitTogetherAreAUsageErrorToo() {
        CommandRun run = CommandRun.of("local", "--hosts", "0");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--hosts must be between 1 and 16, was 0");
    }

    @Test
    void helpDescribesEveryOptionWithItsDefaultAndExitsZero() {
        CommandRun run = CommandRun.of("local", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(CommandRun.usage("local"))
                .contains("fault injection", "kill-host", "voter-1", "--checkpoint-port", "--[no-]replace-failed-hosts")
                .contains("--router-port", "--hosts", "--voters", "--dashboard-port", "--no-dashboard", "--topology",
                        "--no-deploy", "--exit-when-finished", "--run-dir", "--startup-timeout", "--rebuild",
                        "--operators=JAR")
                .contains("(default: 8080)", "(default: 8082)", "(default: 3)", "(default: 1)", "(default: 8090)",
                        "examples/word-count.json", "(default: 120s)");
        assertThat(CommandRun.of("help", "local").out()).isEqualTo(run.out());
    }

    @Test
    void errorsAreParameterExceptionsSoThatTheyExitWithTwo() {
        assertThatThrownBy(() -> parse("--hosts", "0")).isInstanceOf(ParameterException.class);
        assertThatThrownBy(() -> parse("--bogus")).isInstanceOf(ParameterException.class);
    }

    /** Parses {@code steadfast local <args>} as the launcher does, without running anything. */
    private static LaunchOptions parse(String... args) {
        ParseResult parsed = SteadfastCommand.commandLine()
                .parseArgs(Stream.concat(Stream.of("local"), Stream.of(args)).toArray(String[]::new));
        LocalCommand local = parsed.subcommand().commandSpec().commandLine().getCommand();
        return local.launchOptions();
    }
}
