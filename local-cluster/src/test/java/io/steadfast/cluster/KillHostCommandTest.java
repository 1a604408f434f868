package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KillHostCommandTest {

    @Test
    void needsTheHostToKill() {
        CommandRun run = CommandRun.of("kill-host");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("HOST-ID", "./steadfast kill-host --help");
    }

    @Test
    void rejectsRouterPortOutOfRange() {
        CommandRun run = CommandRun.of("kill-host", "host-2", "--router-port", "65536");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'--router-port'", "65536 is not a TCP port");
    }

    @Test
    void helpNamesTheHostIdAndTheRouterPortDefault() {
        CommandRun run = CommandRun.of("kill-host", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("HOST-ID", "--router-port=PORT", "(default: 8080)", "kill -9");
    }
}
