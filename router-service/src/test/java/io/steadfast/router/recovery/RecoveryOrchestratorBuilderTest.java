package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.router.placement.EvenTaskPlacer;
import org.junit.jupiter.api.Test;

class RecoveryOrchestratorBuilderTest {

    @Test
    void namesEveryCollaboratorNotGiven() {
        assertThatThrownBy(() -> RecoveryOrchestrator.builder().placer(new EvenTaskPlacer()).log(new RecoveryLog())
                .build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[topologies, detector, hostClient, checkpoints, progress, clock]");
    }
}
