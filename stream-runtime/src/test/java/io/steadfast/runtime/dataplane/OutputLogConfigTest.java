package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OutputLogConfigTest {

    @Test
    void defaultsToSixteenMebibytesInMemorySpillingUnderTheTemporaryDirectory() {
        OutputLogConfig defaults = DataPlaneConfig.defaults().outputLog();

        assertThat(defaults.memoryBytes()).isEqualTo(16L * 1024 * 1024);
        assertThat(defaults.spillDirectory()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        assertThat(defaults.spillFileBytes()).isEqualTo(8L * 1024 * 1024);
    }

    @Test
    void rejectsANonPositiveBoundNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> DataPlaneConfig.defaults().withOutputLogMemoryBytes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DataPlaneConfig.outputLog.memoryBytes must be >= 1, was 0");
        assertThatThrownBy(() -> OutputLogConfig.defaults().withSpillFileBytes(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("DataPlaneConfig.outputLog.spillFileBytes must be >= 1, was -1");
    }

    @Test
    void changesOneSettingAndKeepsTheOthers() {
        DataPlaneConfig config = DataPlaneConfig.defaults().withOutputLogMemoryBytes(1024)
                .withSpillDirectory(Path.of("/var/spill"));

        assertThat(config.outputLog()).isEqualTo(new OutputLogConfig(1024, Path.of("/var/spill"),
                OutputLogConfig.DEFAULT_SPILL_FILE_BYTES));
        assertThat(config.creditFrames()).isEqualTo(DataPlaneConfig.DEFAULT_CREDIT_FRAMES);
    }
}
