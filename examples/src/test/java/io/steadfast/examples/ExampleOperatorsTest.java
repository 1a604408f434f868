package io.steadfast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.examples.scoring.ScoringVersions;
import io.steadfast.runtime.operator.OperatorRegistry;
import org.junit.jupiter.api.Test;

/** The jar declares its provider for ServiceLoader, so a service with the jar on its class path finds the types. */
class ExampleOperatorsTest {

    @Test
    void aRegistryLoadedFromTheClassPathKnowsTheScoringVersions() {
        OperatorRegistry loaded = OperatorRegistry.load();

        assertThat(loaded.typeNames()).contains(ScoringVersions.FORMULA, ScoringVersions.TABLE,
                ScoringVersions.ITERATIVE);
        assertThat(loaded.require(ScoringVersions.TABLE).sharedInstance()).as("stateless: one PE per task").isTrue();
    }
}
