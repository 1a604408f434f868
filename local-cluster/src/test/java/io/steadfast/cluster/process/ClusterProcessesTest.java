package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.runtime.plan.HostId;
import java.nio.file.Path;
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
    void refusesToStartTheRouterBeforeTheCheckpointService() {
        assertThatThrownBy(() -> new ClusterProcesses(RepoLayout.fromWorkingDirectory(), runDir).startRouter(1))
                .hasMessageContaining("Start the checkpoint-service before the router");
    }
}
