package io.steadfast.runtime.operator;

import io.steadfast.api.operator.ConfigException;
import io.steadfast.api.operator.OperatorType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Binds an operator's JSON config to its config record and runs the type's validator. Unknown fields are
 * rejected, so a typo in a config key is an error rather than a silently ignored setting. Thread-safe.
 */
public final class ConfigBinder {

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT) // 1.5 for a count is an error, not 1
            .build();

    /**
     * @param config the JSON config, or null for none
     * @throws ConfigException naming the field at fault
     */
    public <C> C bind(OperatorType<C> type, JsonNode config) {
        JsonNode node = config == null || config.isNull() || config.isMissingNode()
                ? JsonNodeFactory.instance.objectNode() : config;
        if (!node.isObject()) {
            throw new ConfigException("config", "config of operator type '" + type.name()
                    + "' must be a JSON object, was " + node.getNodeType().name().toLowerCase());
        }
        C bound;
        try {
            bound = mapper.treeToValue(node, type.configType());
        } catch (JacksonException e) {
            if (e.getCause() instanceof ConfigException fromRecord) {
                throw fromRecord;
            }
            throw new ConfigException(fieldOf(e), describe(e));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config", e.getMessage());
        }
        type.validator().accept(bound);
        return bound;
    }

    private static String fieldOf(JacksonException e) {
        StringBuilder field = new StringBuilder();
        for (JacksonException.Reference reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!field.isEmpty()) {
                    field.append('.');
                }
                field.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                field.append('[').append(reference.getIndex()).append(']');
            }
        }
        return field.isEmpty() ? "config" : field.toString();
    }

    private static String describe(JacksonException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IllegalArgumentException || cause instanceof ConfigException) {
            return cause.getMessage();
        }
        String message = e.getOriginalMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
