package io.steadfast.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.operator.ConfigException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A scoring version's config, bound from JSON as a host binds it: defaults, and errors that name the field. */
class ScoringConfigTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void injectsNoFaultWhenEveryFieldIsLeftOut() {
        assertThat(bind("{}")).isEqualTo(ScoringConfig.none())
                .isEqualTo(new ScoringConfig(0.0, null, null, null));
    }

    @Test
    void bindsEveryFault() {
        assertThat(bind("{\"wrongFraction\": 1, \"throwAtInput\": 7, \"stallAtInput\": 9, \"stallMs\": 250}"))
                .isEqualTo(new ScoringConfig(1.0, 7L, 9L, 250L));
    }

    @Test
    void rejectsAWrongFractionOutsideZeroToOne() {
        assertRejected("{\"wrongFraction\": 1.5}", "wrongFraction", "share in 0..1", "was 1.5");
        assertRejected("{\"wrongFraction\": -0.1}", "wrongFraction", "was -0.1");
    }

    @Test
    void rejectsInputNumbersBelowOne() {
        assertRejected("{\"throwAtInput\": 0}", "throwAtInput", "at least 1", "was 0");
        assertRejected("{\"stallAtInput\": -2, \"stallMs\": 10}", "stallAtInput", "was -2");
    }

    @Test
    void wantsStallAtInputAndStallMsTogetherAndAStallInRange() {
        assertRejected("{\"stallAtInput\": 5}", "stallMs", "stallMs is missing");
        assertRejected("{\"stallMs\": 100}", "stallAtInput", "stallAtInput is missing", "or remove stallMs");
        assertRejected("{\"stallAtInput\": 5, \"stallMs\": 0}", "stallMs", "1..600000 ms, was 0");
    }

    @Test
    void rejectsAnUnknownFieldByName() {
        assertRejected("{\"throwAt\": 3}", "throwAt", "throwAt");
    }

    private static Object bind(String json) {
        return ScoringDrivers.REGISTRY.bindConfig(ScoringVersions.FORMULA, JSON.readTree(json));
    }

    private static void assertRejected(String json, String field, String... messageParts) {
        assertThatThrownBy(() -> bind(json))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessageContainingAll(messageParts);
    }
}
