package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LaunchOptionsTest {

    @Test
    void defaultsToThreeHostsDashboardAndWordCount() {
        LaunchOptions options = LaunchOptions.parse();

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
    }

    @Test
    void takesStandbyHostsWithinTheHostLimit() {
        assertThat(LaunchOptions.parse("--standby-hosts", "0").standbyHosts()).isZero();
        assertThat(LaunchOptions.parse("--hosts=4", "--standby-hosts=2").standbyHosts()).isEqualTo(2);
        assertThatThrownBy(() -> LaunchOptions.parse("--hosts", "15", "--standby-hosts", "2"))
                .hasMessageContaining("--standby-hosts must be between 0 and 1").hasMessageContaining("was 2");
        assertThatThrownBy(() -> LaunchOptions.parse("--standby-hosts", "-1")).hasMessageContaining("was -1");
    }

    @Test
    void acceptsSeparateAndInlineValues() {
        LaunchOptions options = LaunchOptions.parse("--router-port", "9000", "--checkpoint-port=9002", "--hosts=5",
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
    void noDeployLeavesNoTopology() {
        LaunchOptions options = LaunchOptions.parse("--no-deploy", "--no-dashboard");

        assertThat(options.deploy()).isFalse();
        assertThat(options.topology()).isNull();
        assertThat(options.dashboard()).isFalse();
    }

    @Test
    void rejectsUnknownOptionListingTheValidOnes() {
        assertThatThrownBy(() -> LaunchOptions.parse("--host", "2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'--host'")
                .hasMessageContaining("--hosts");
    }

    @Test
    void rejectsHostCountOutsideRange() {
        assertThatThrownBy(() -> LaunchOptions.parse("--hosts", "0")).hasMessageContaining("--hosts must be between 1 and 16, was 0");
        assertThatThrownBy(() -> LaunchOptions.parse("--hosts", "17")).hasMessageContaining("was 17");
    }

    @Test
    void rejectsNonNumericAndMissingValues() {
        assertThatThrownBy(() -> LaunchOptions.parse("--router-port", "http")).hasMessageContaining("--router-port needs a whole number, was 'http'");
        assertThatThrownBy(() -> LaunchOptions.parse("--hosts")).hasMessageContaining("--hosts needs a value");
        assertThatThrownBy(() -> LaunchOptions.parse("--topology", "--no-dashboard")).hasMessageContaining("--topology needs a value");
    }

    @Test
    void rejectsPortsOutOfRangeOrEqual() {
        assertThatThrownBy(() -> LaunchOptions.parse("--router-port", "70000")).hasMessageContaining("between 1 and 65535, was 70000");
        assertThatThrownBy(() -> LaunchOptions.parse("--router-port", "9000", "--dashboard-port", "9000"))
                .hasMessageContaining("both 9000");
        assertThatThrownBy(() -> LaunchOptions.parse("--checkpoint-port", "8080"))
                .hasMessageContaining("--router-port and --checkpoint-port are both 8080");
        assertThatThrownBy(() -> LaunchOptions.parse("--checkpoint-port", "8090"))
                .hasMessageContaining("--checkpoint-port and --dashboard-port are both 8090");
    }

    @Test
    void allowsSameDashboardPortWhenDashboardIsOff() {
        assertThat(LaunchOptions.parse("--router-port", "8090", "--no-dashboard").routerPort()).isEqualTo(8090);
    }

    @Test
    void rejectsContradictoryOptions() {
        assertThatThrownBy(() -> LaunchOptions.parse("--no-deploy", "--topology", "x.json")).hasMessageContaining("contradict");
        assertThatThrownBy(() -> LaunchOptions.parse("--no-dashboard", "--dashboard-port", "9000")).hasMessageContaining("contradict");
        assertThatThrownBy(() -> LaunchOptions.parse("--no-deploy", "--exit-when-finished")).hasMessageContaining("drop --no-deploy");
        assertThatThrownBy(() -> LaunchOptions.parse("--replace-failed-hosts", "--no-replace-failed-hosts"))
                .hasMessageContaining("contradict");
    }

    @Test
    void rejectsValueForFlag() {
        assertThatThrownBy(() -> LaunchOptions.parse("--no-deploy=yes")).hasMessageContaining("--no-deploy takes no value");
    }

    @Test
    void recognisesHelpAndDescribesEveryOption() {
        assertThat(LaunchOptions.wantsHelp("--hosts", "2", "--help")).isTrue();
        assertThat(LaunchOptions.wantsHelp("--hosts", "2")).isFalse();
        assertThat(LaunchOptions.USAGE).contains("fault injection", "kill-host", "--checkpoint-port",
                "--replace-failed-hosts", "--no-replace-failed-hosts");
        assertThat(LaunchOptions.USAGE).contains("--router-port", "--hosts", "--dashboard-port", "--no-dashboard",
                "--topology", "--no-deploy", "--exit-when-finished", "--run-dir", "--startup-timeout");
    }
}
