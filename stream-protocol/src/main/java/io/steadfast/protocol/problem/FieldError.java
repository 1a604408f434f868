package io.steadfast.protocol.problem;

import org.jspecify.annotations.Nullable;

/**
 * One field at fault, in a problem's {@link ProblemType#ERRORS} member.
 *
 * @param field    the JSON path of the field, e.g. {@code acks[0].task} or {@code operators[2].config.keys}
 * @param operator the operator at fault in a topology, or null (the topology as a whole, or a body that is no topology)
 * @param message  what is wrong and what to do
 */
public record FieldError(String field, @Nullable String operator, String message) {

    /** An error of a field of a body that is no topology. */
    public static FieldError of(String field, String message) {
        return new FieldError(field, null, message);
    }
}
