package io.steadfast.runtime.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.FilterPredicate;
import io.steadfast.api.operator.MapFunction;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorRole;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.operator.builtin.MapConfig;
import io.steadfast.runtime.operator.builtin.WindowSumConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OperatorRegistryTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A provider contributing one operator type and one map function. */
    static final class EchoProvider implements OperatorProvider {
        @Override
        public List<OperatorType<?>> operatorTypes() {
            return List.of(OperatorType.processor("echo", NoConfig.class,
                    init -> (event, context) -> context.emit(event.value()), "test"));
        }

        @Override
        public Map<String, MapFunction> mapFunctions() {
            return Map.of("reverse", (key, value) -> new StringBuilder(String.valueOf(value)).reverse().toString());
        }
    }

    /** A provider that reuses a built-in operator type name. */
    static final class ClashingTypeProvider implements OperatorProvider {
        @Override
        public List<OperatorType<?>> operatorTypes() {
            return List.of(OperatorType.processor("map", NoConfig.class, init -> (event, context) -> { }, "test"));
        }
    }

    /** A provider that reuses a built-in filter predicate name. */
    static final class ClashingPredicateProvider implements OperatorProvider {
        @Override
        public List<OperatorType<?>> operatorTypes() {
            return List.of();
        }

        @Override
        public Map<String, FilterPredicate> filterPredicates() {
            return Map.of("even", (key, value) -> true);
        }
    }

    @Test
    void knowsTheBuiltInOperatorTypes() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());

        assertThat(registry.typeNames()).containsExactly("filter", "generator", "keyed-count",
                "keyed-digest", "latest-value-sink", "log-sink", "map", "vote", "window-sum");
        assertThat(registry.require("generator").role()).isEqualTo(OperatorRole.SOURCE);
        assertThat(registry.require("latest-value-sink").role()).isEqualTo(OperatorRole.SINK);
        assertThat(registry.require("map").sharedInstance()).isTrue();
        assertThat(registry.require("keyed-count").sharedInstance()).isFalse();
        assertThat(registry.require("keyed-digest").sharedInstance()).isFalse();
    }

    @Test
    void callsTheTypesThatKeepStatePerKeyKeyed() {
        OperatorRegistry registry = OperatorRegistry.of(List.of(new EchoProvider()));

        assertThat(registry.typeNames()).filteredOn(registry::isKeyed)
                .containsExactly("echo", "keyed-count", "keyed-digest", "latest-value-sink", "vote", "window-sum");
        assertThat(registry.isKeyed("no-such-type")).isFalse();
    }

    @Test
    void addsTheTypesAndFunctionsOfGivenProviders() {
        OperatorRegistry registry = OperatorRegistry.of(List.of(new EchoProvider()));

        Object config = registry.bindConfig("map", JSON.readTree("{\"function\": \"reverse\"}"));

        assertThat(registry.type("echo")).isPresent();
        assertThat(config).isEqualTo(new MapConfig("reverse"));
    }

    @Test
    void failsOnADuplicateOperatorTypeNamingTheProvider() {
        assertThatThrownBy(() -> OperatorRegistry.of(List.of(new ClashingTypeProvider())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Operator type 'map'")
                .hasMessageContaining(ClashingTypeProvider.class.getName());
    }

    @Test
    void failsOnTheSameOperatorTypeFromTwoProviders() {
        assertThatThrownBy(() -> OperatorRegistry.of(List.of(new EchoProvider(), new EchoProvider())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'reverse'")
                .hasMessageContaining(EchoProvider.class.getName());
    }

    @Test
    void failsOnADuplicateFilterPredicateNamingTheProvider() {
        assertThatThrownBy(() -> OperatorRegistry.of(List.of(new ClashingPredicateProvider())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("filter predicate 'even'")
                .hasMessageContaining(ClashingPredicateProvider.class.getName());
    }

    @Test
    void listsTheKnownTypesForAnUnknownOne() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());

        assertThatThrownBy(() -> registry.require("widnow-sum"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Operator type 'widnow-sum' is unknown on this host; known: filter, generator, "
                        + "keyed-count, keyed-digest, latest-value-sink, log-sink, map, vote, window-sum");
        assertThat(registry.type("widnow-sum")).isEmpty();
    }

    @Test
    void bindsBuiltInConfigsWithDefaults() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());

        assertThat(registry.bindConfig("window-sum", null)).isEqualTo(new WindowSumConfig(1_000L));
    }

    @Test
    void rejectsAnUnknownMapFunctionListingTheKnownOnes() {
        OperatorRegistry registry = OperatorRegistry.of(List.of(new EchoProvider()));

        assertThatThrownBy(() -> registry.bindConfig("map", JSON.readTree("{\"function\": \"upper\"}")))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo("function"))
                .hasMessage("function 'upper' is not registered; known: double, identity, length, lowercase, "
                        + "negate, reverse, square, to-string, uppercase");
    }

    @Test
    void rejectsAnUnknownFilterPredicateAndAMissingFunctionNamingTheField() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());

        assertThatThrownBy(() -> registry.bindConfig("filter", JSON.readTree("{\"predicate\": \"big\"}")))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo("predicate"))
                .hasMessageContaining("known: all, even, non-null, none, odd, positive");
        assertThatThrownBy(() -> registry.bindConfig("map", JSON.readTree("{}")))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo("function"))
                .hasMessageContaining("function is required");
    }

    @Test
    void rejectsInvalidBuiltInConfigValuesNamingTheField() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());

        assertThatThrownBy(() -> registry.bindConfig("log-sink", JSON.readTree("{\"every\": 0}")))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo("every"));
        assertThatThrownBy(() -> registry.bindConfig("generator", JSON.readTree("{\"ratePerSecond\": -1}")))
                .isInstanceOfSatisfying(ConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("ratePerSecond"));
    }

    @Test
    void aSpecCannotNameTheVoteOperatorWhichOnlyThePlannerPlaces() {
        io.steadfast.runtime.topology.TopologySpec spec = new io.steadfast.runtime.topology.TopologySpecReader().read("""
                {"id": "t", "operators": [
                  {"id": "source", "type": "generator"},
                  {"id": "v", "type": "vote", "config": {"versions": 2}, "inputs": [{"from": "source"}]}
                ]}""");

        assertThatThrownBy(() -> new io.steadfast.runtime.topology.TopologyValidator(OperatorRegistry.of(List.of()))
                .validate(spec))
                .isInstanceOfSatisfying(io.steadfast.runtime.topology.TopologyValidationException.class, e ->
                        assertThat(e.violations()).singleElement().satisfies(violation -> {
                            assertThat(violation.field()).isEqualTo("operators[1].type");
                            assertThat(violation.message()).contains("added by the planner", "\"versions\"");
                        }));
    }

    @Test
    void bindsTheVoteConfigWithDefaultsAndRejectsABadOneNamingTheField() {
        OperatorRegistry registry = OperatorRegistry.of(List.of());
        JsonMapper json = JsonMapper.builder().build();

        io.steadfast.runtime.voting.VoteConfig bound = (io.steadfast.runtime.voting.VoteConfig) registry.bindConfig(
                "vote", json.readTree("{\"versions\": 3}"));

        assertThat(bound.quorum()).isEqualTo(2);
        assertThat(bound.deadlineMs()).isEqualTo(1_000L);
        assertThatThrownBy(() -> registry.bindConfig("vote", json.readTree("{\"versions\": 3, \"quorum\": 4}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("quorum");
    }
}
