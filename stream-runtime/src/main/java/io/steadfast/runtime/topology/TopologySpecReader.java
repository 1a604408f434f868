package io.steadfast.runtime.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a {@link TopologySpec} from JSON. The size limit is checked before parsing; unknown fields, wrong value
 * types and malformed JSON are reported as a {@link TopologyValidationException} with a single violation whose
 * field is the JSON path of the problem ({@code operators[1].parallelism}) and whose message says what was
 * expected. The result is not yet validated: pass it to {@link TopologyValidator}.
 *
 * <p>Thread-safe.
 */
public final class TopologySpecReader {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();

    private final int maxSpecBytes;

    /** A reader with the default limit of {@link TopologyLimits#DEFAULT_MAX_SPEC_BYTES}. */
    public TopologySpecReader() {
        this(TopologyLimits.DEFAULT_MAX_SPEC_BYTES);
    }

    /** A reader that rejects documents larger than {@code maxSpecBytes}. */
    public TopologySpecReader(int maxSpecBytes) {
        if (maxSpecBytes < 1) {
            throw new IllegalArgumentException("maxSpecBytes must be >= 1, was " + maxSpecBytes);
        }
        this.maxSpecBytes = maxSpecBytes;
    }

    /** A reader with the size limit of {@code limits}. */
    public static TopologySpecReader withLimits(TopologyLimits limits) {
        return new TopologySpecReader(limits.maxSpecBytes());
    }

    /** Reads a spec from UTF-8 JSON text. */
    public TopologySpec read(String json) {
        return read(Objects.requireNonNull(json, "json").getBytes(StandardCharsets.UTF_8));
    }

    /** Reads a spec from a stream, reading at most one byte more than the limit. Does not close the stream. */
    public TopologySpec read(InputStream in) {
        try {
            return read(in.readNBytes(maxSpecBytes + 1));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the topology spec", e);
        }
    }

    /** Reads a spec from UTF-8 JSON bytes. */
    public TopologySpec read(byte[] json) {
        if (json.length > maxSpecBytes) {
            throw invalid("", "the topology spec is " + json.length + " bytes, over the limit of " + maxSpecBytes
                    + " bytes; make it smaller (move bulky config elsewhere) or raise maxSpecBytes");
        }
        return bind(() -> MAPPER.readValue(json, TopologySpec.class));
    }

    /**
     * Reads a spec from a JSON tree already parsed (e.g. a stored copy of a submitted document); no size limit
     * applies.
     */
    public TopologySpec read(JsonNode document) {
        Objects.requireNonNull(document, "document");
        return bind(() -> MAPPER.treeToValue(document, TopologySpec.class));
    }

    private static TopologySpec bind(Supplier<TopologySpec> parse) {
        TopologySpec spec;
        try {
            spec = parse.get();
        } catch (JacksonException e) {
            throw toValidationException(e);
        }
        if (spec == null) {
            throw invalid("", "the topology spec is null; send a JSON object with 'id' and 'operators'");
        }
        return spec;
    }

    private static TopologyValidationException toValidationException(JacksonException e) {
        String path = pathOf(e.getPath());
        String detail = describe(e);
        String relative = path.replaceFirst("^operators\\[\\d+]\\.?", "");
        String message = relative.isEmpty() ? detail : relative + ": " + detail;
        return invalid(path, message);
    }

    private static String describe(JacksonException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            return "'" + unknown.getPropertyName() + "' is not a known field; known fields: "
                    + sortedNames(unknown.getKnownPropertyIds());
        }
        if (e instanceof ValueInstantiationException && e.getCause() instanceof IllegalArgumentException cause) {
            return cause.getMessage();
        }
        if (e instanceof InvalidFormatException format && format.getCause() instanceof IllegalArgumentException cause) {
            return cause.getMessage();
        }
        if (e instanceof InvalidFormatException format) {
            return "expected " + expected(format.getTargetType()) + ", found '" + format.getValue() + "'";
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return "expected " + expected(mismatch.getTargetType()) + ", found " + found(mismatch.getCurrentToken());
        }
        return "malformed JSON" + at(e.getLocation()) + ": " + firstLine(e.getOriginalMessage());
    }

    static String pathOf(List<JacksonException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : references) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "an integer";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Partitioning.class) {
            return "one of " + Partitioning.namesList();
        }
        if (List.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (JsonNode.class.isAssignableFrom(type)) {
            return "a JSON value";
        }
        return "an object";
    }

    private static String found(JsonToken token) {
        if (token == null) {
            return "the end of the document";
        }
        return switch (token) {
            case START_OBJECT, END_OBJECT, PROPERTY_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.name().toLowerCase();
        };
    }

    private static String at(TokenStreamLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable document";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    private static String sortedNames(Collection<Object> names) {
        return names == null ? "" : names.stream().map(String::valueOf)
                .collect(Collectors.toCollection(TreeSet::new)).stream().collect(Collectors.joining(", "));
    }

    private static TopologyValidationException invalid(String field, String message) {
        return new TopologyValidationException(null, List.of(new Violation(null, field, message)));
    }
}
