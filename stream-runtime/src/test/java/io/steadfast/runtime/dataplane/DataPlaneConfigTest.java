package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A data plane that binds a wildcard address advertises the address peers can reach. */
class DataPlaneConfigTest {

    @Test
    void advertisesTheBoundEndpointWhenNoHostIsGiven() {
        assertThat(DataPlaneConfig.defaults().advertised("tcp://127.0.0.1:41234")).isEqualTo("tcp://127.0.0.1:41234");
    }

    @Test
    void advertisesTheGivenHostWithTheBoundPort() {
        DataPlaneConfig config = DataPlaneConfig.defaults().withBindAddress("tcp://0.0.0.0:7000")
                .withAdvertisedHost("10.1.2.3");

        assertThat(config.advertised("tcp://0.0.0.0:7000")).isEqualTo("tcp://10.1.2.3:7000");
        assertThat(config.withAdvertisedHost("[fd00::7]").advertised("tcp://[::]:7000"))
                .isEqualTo("tcp://[fd00::7]:7000");
    }

    @Test
    void refusesAnAdvertisedHostWithASchemeOrPort() {
        assertThatThrownBy(() -> DataPlaneConfig.defaults().withAdvertisedHost("tcp://10.1.2.3:7000"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("advertisedHost");
        assertThatThrownBy(() -> DataPlaneConfig.defaults().withAdvertisedHost("10.1.2.3:7000"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without scheme or port");
    }

    @Test
    void aStartedDataPlaneAdvertisesTheGivenHost() {
        try (DataPlane plane = DataPlane.start(DataPlaneConfig.defaults().withAdvertisedHost("localhost"),
                OutputLogSink.NONE)) {
            assertThat(plane.endpoint()).matches("tcp://localhost:\\d+");
        }
    }
}
