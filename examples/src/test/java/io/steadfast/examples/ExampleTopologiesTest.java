package io.steadfast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.examples.scoring.ScoringVersions;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.topology.OperatorSpec;
import io.steadfast.runtime.topology.TopologySpec;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import io.steadfast.runtime.topology.VersionSpec;
import io.steadfast.runtime.topology.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The N-version scoring topology and its reference pass the router's validation once the catalog knows the example
 * types, and are the same job but for the scoring operator, so their sinks can be compared key by key.
 */
class ExampleTopologiesTest {

    private static final OperatorRegistry WITH_EXAMPLES = OperatorRegistry.of(List.of(new ExampleOperators()));

    private final TopologySpec nVersion = read("n-version-scoring.json");
    private final TopologySpec reference = read("scoring-reference.json");

    @Test
    void everyTopologyHerePassesValidationWithTheExampleTypesAndExpands() throws IOException {
        TopologyValidator validator = new TopologyValidator(WITH_EXAMPLES);
        List<Path> files;
        try (Stream<Path> listed = Files.list(Path.of(""))) {
            files = listed.filter(path -> path.toString().endsWith(".json")).sorted().toList();
        }

        assertThat(files).extracting(Path::toString).contains("n-version-scoring.json", "scoring-reference.json");
        for (Path file : files) {
            TopologySpec spec = read(file.toString());
            assertThat(validator.violationsOf(spec)).as(file.toString()).isEmpty();
            assertThat(PlanExpander.expand(spec).sources()).as(file.toString()).isNotEmpty();
        }
    }

    @Test
    void withoutTheExampleTypesTheVersionsAreUnknown() {
        List<Violation> violations = new TopologyValidator(OperatorRegistry.of(List.of())).violationsOf(nVersion);

        assertThat(violations).extracting(Violation::field).contains("operators[1].versions[0].type",
                "operators[1].versions[1].type", "operators[1].versions[2].type");
    }

    @Test
    void theScoringOperatorRunsTheThreeVersionsTwoOfThemFaultyUnderMajorityVoting() {
        OperatorSpec score = operator(nVersion, "score");

        assertThat(score.versions()).extracting(VersionSpec::type)
                .containsExactly(ScoringVersions.FORMULA, ScoringVersions.TABLE, ScoringVersions.ITERATIVE);
        assertThat(score.versions().get(0).config().isEmpty()).isTrue();
        assertThat(score.versions().get(1).config().get("wrongFraction").asDouble()).isEqualTo(0.1);
        assertThat(score.versions().get(2).config().get("throwAtInput").asLong()).isPositive();
        assertThat(score.voting().strategy()).isEqualTo("majority");
    }

    @Test
    void theReferenceIsTheSameJobWithOneFaultFreeVersionAndNoVoting() {
        OperatorSpec score = operator(reference, "score");

        assertThat(score.isNVersion()).isFalse();
        assertThat(score.type()).isEqualTo(ScoringVersions.FORMULA);
        assertThat(score.config().isEmpty()).isTrue();
        assertThat(score.voting()).isNull();
        assertThat(score.parallelism()).isEqualTo(operator(nVersion, "score").parallelism());
        assertThat(score.inputs()).isEqualTo(operator(nVersion, "score").inputs());
        for (String id : List.of("source", "digest", "sink")) {
            assertThat(operator(reference, id)).as(id).isEqualTo(operator(nVersion, id));
        }
        assertThat(operator(nVersion, "digest").type()).as("a per-key result that depends on the order of the scores")
                .isEqualTo("keyed-digest");
    }

    private static OperatorSpec operator(TopologySpec spec, String id) {
        return spec.operators().stream().filter(operator -> id.equals(operator.id())).findFirst().orElseThrow();
    }

    /** A topology file of the examples directory, which is this module's directory (surefire's working directory). */
    private static TopologySpec read(String file) {
        try {
            return new TopologySpecReader().read(Files.readString(Path.of(file)));
        } catch (IOException e) {
            throw new AssertionError("cannot read examples/" + file, e);
        }
    }
}
