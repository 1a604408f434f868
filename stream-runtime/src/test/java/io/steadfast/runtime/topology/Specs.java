package io.steadfast.runtime.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Builds topology specs for tests: {@code Specs.topology("t").op("a", "generator", 1).op(...).build()}. */
public final class Specs {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final String id;
    private final List<OperatorSpec> operators = new ArrayList<>();

    private Specs(String id) {
        this.id = id;
    }

    public static Specs topology(String id) {
        return new Specs(id);
    }

    /** An operator with key-partitioned inputs from the named operators and no config. */
    public Specs op(String opId, String type, int parallelism, String... from) {
        return opWith(opId, type, parallelism, "{}", Arrays.stream(from).map(InputSpec::byKey).toArray(InputSpec[]::new));
    }

    /** An operator with a config (single quotes allowed for double) and the given inputs. */
    public Specs opWith(String opId, String type, int parallelism, String configJson, InputSpec... inputs) {
        operators.add(new OperatorSpec(opId, type, parallelism, List.of(inputs), config(configJson)));
        return this;
    }

    public TopologySpec build() {
        return new TopologySpec(id, operators);
    }

    public static JsonNode config(String json) {
        return MAPPER.readTree(json.replace('\'', '"'));
    }
}
