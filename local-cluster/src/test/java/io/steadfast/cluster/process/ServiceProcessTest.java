package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceProcessTest {

    @Test
    void excerptStartsAtTheFirstErrorLine() {
        List<String> log = List.of("banner", "starting", "ERROR Port 8080 was already in use", "  at x", "end");

        assertThat(ServiceProcess.excerpt(log, 2)).containsExactly("ERROR Port 8080 was already in use", "  at x");
    }

    @Test
    void excerptFallsBackToTheLastLines() {
        assertThat(ServiceProcess.excerpt(List.of("a", "b", "c"), 2)).containsExactly("b", "c");
    }

    @Test
    void picksAPortThatIsFree() {
        assertThat(FreePort.isFree(FreePort.pick())).isTrue();
    }
}
