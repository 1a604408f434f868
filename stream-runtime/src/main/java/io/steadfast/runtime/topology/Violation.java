package io.steadfast.runtime.topology;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One thing wrong with a topology spec.
 *
 * @param operator the id of the operator at fault as written (may be invalid); {@code null} for a
 *                 topology-level problem or when the operator has no id
 * @param field the JSON path of the problem from the document root, e.g. {@code operators[2].inputs[0].from},
 *              {@code id}, or empty for the document as a whole
 * @param message what is wrong, the value seen and what to do, starting with the field relative to the
 *                operator ({@code inputs[0].from 'x' names no operator; ...}) or to the root
 */
public record Violation(String operator, String field, String message) {

    private static final Pattern OPERATOR_PATH = Pattern.compile("^(operators\\[\\d+])(?:\\.|$)");

    public Violation {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(message, "message");
    }

    /** The violation as one line: {@code operators[1] 'count': inputs[0].from 'sorce' names no operator; ...}. */
    public String describe() {
        Matcher matcher = OPERATOR_PATH.matcher(field);
        if (!matcher.find()) {
            return message;
        }
        String where = matcher.group(1) + (operator == null ? "" : " '" + operator + "'");
        return where + ": " + message;
    }

    @Override
    public String toString() {
        return describe();
    }
}
