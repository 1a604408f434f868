package io.steadfast.runtime.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every topology in the repository's {@code examples/} directory that uses built-in operator types only reads,
 * validates (against the test catalog and the runtime's own operator registry) and expands. The others use the
 * operator types of the examples module, whose own test checks every file with those types known.
 */
class ExampleTopologiesTest {

    private static final Path EXAMPLES = Paths.get("../examples");

    private final TopologySpecReader reader = new TopologySpecReader();
    private final TopologyValidator validator = new TopologyValidator(FakeOperatorCatalog.builtIns());
    private final TopologyValidator runtimeValidator = new TopologyValidator(OperatorRegistry.of(List.of()));

    @Test
    void readsValidatesAndExpandsEveryExampleOfBuiltInTypes() throws IOException {
        List<Path> examples = examples().stream().filter(this::usesBuiltInTypesOnly).toList();

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

    private boolean usesBuiltInTypesOnly(Path example) {
        TopologySpec spec;
        try {
            spec = reader.read(Files.readAllBytes(example));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> builtIn = OperatorRegistry.of(List.of()).typeNames();
        return spec.operators().stream()
                .flatMap(operator -> Stream.concat(Stream.of(operator.type()),
                        operator.versions().stream().map(VersionSpec::type)))
                .filter(Objects::nonNull)
                .allMatch(builtIn::contains);
    }

    private static List<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.filter(path -> path.toString().endsWith(".json")).sorted().toList();
        }
    }
}
