package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every topology in the repository's {@code examples/} directory reads, validates (against the test catalog and the
 * runtime's own operator registry) and expands.
 */
class ExampleTopologiesTest {

    private static final Path EXAMPLES = Paths.get("../examples");

    private final TopologySpecReader reader = new TopologySpecReader();
    private final TopologyValidator validator = new TopologyValidator(FakeOperatorCatalog.builtIns());
    private final TopologyValidator runtimeValidator = new TopologyValidator(OperatorRegistry.of(List.of()));

    @Test
    void readsValidatesAndExpandsEveryExample() throws IOException {
        List<Path> examples = examples();

        assertThat(examples).extracting(path -> path.getFileName().toString())
                .contains("word-count.json", "windowed-sum.json", "map-filter.json");
        for (Path example : examples) {
            assertThatCode(() -> {
                TopologySpec spec = validator.validate(reader.read(Files.readAllBytes(example)));
                runtimeValidator.validate(spec);
                ExecutionPlan plan = PlanExpander.expand(spec);
                assertThat(plan.sources()).isNotEmpty();
            }).as(example.toString()).doesNotThrowAnyException();
        }
    }

    @Test
    void namesEachExampleFileAfterItsTopologyId() throws IOException {
        for (Path example : examples()) {
            TopologySpec spec = reader.read(Files.readAllBytes(example));
            assertThat(spec.id() + ".json").isEqualTo(example.getFileName().toString());
        }
    }

    private static List<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.filter(path -> path.toString().endsWith(".json")).sorted().toList();
        }
    }
}
