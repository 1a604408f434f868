package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SteadfastCommandTest {

    @Test
    void withoutACommandIsAUsageError() {
        CommandRun run = CommandRun.of();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required subcommand", "./steadfast --help");
    }

    @Test
    void helpListsTheCommands() {
        CommandRun run = CommandRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("local", "kill-host", "help").isEqualTo(CommandRun.of("help").out());
    }

    @Test
    void rejectsUnknownCommand() {
        CommandRun run = CommandRun.of("start");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'start'");
    }

    @Test
    void versionIsTheProjectVersion() {
        CommandRun run = CommandRun.of("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip()).isEqualTo("steadfast " + RepoLayout.projectVersion());
    }
}
