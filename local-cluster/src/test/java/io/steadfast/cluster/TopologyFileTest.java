package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TopologyFileTest {

    @Test
    void readsIdAndSinksOfWordCountExample() {
        TopologyFile file = TopologyFile.read(RepoLayout.fromWorkingDirectory().root().resolve("examples/word-count.json"));

        assertThat(file.id()).isEqualTo(new TopologyId("word-count"));
        assertThat(file.sinks()).containsExactly(new OperatorId("sink"));
        assertThat(file.json()).contains("keyed-count");
    }

    @Test
    void rejectsFileWithoutValidId() {
        assertThatThrownBy(() -> TopologyFile.parse(Path.of("bad.json"), "{\"id\": \"Not Valid\", \"operators\": []}"))
                .hasMessageContaining("bad.json")
                .hasMessageContaining("'Not Valid'");
    }

    @Test
    void rejectsNonJson() {
        assertThatThrownBy(() -> TopologyFile.parse(Path.of("bad.json"), "{oops"))
                .hasMessageContaining("bad.json is not valid JSON");
    }
}
