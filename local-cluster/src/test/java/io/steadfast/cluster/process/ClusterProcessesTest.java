package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
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
}
