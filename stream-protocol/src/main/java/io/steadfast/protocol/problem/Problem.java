package io.steadfast.protocol.problem;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An RFC 9457 problem detail in the shape every service shares ({@link ProblemType}), as a client reads it: its
 * status, what went wrong, its reason and its fields at fault.
 *
 * @param status the HTTP status (0 if the body named none)
 * @param title  the status's phrase, or null
 * @param detail what went wrong and what to do, or null
 * @param reason why the request was refused, UPPER_SNAKE (e.g. {@code INVALID_TOPOLOGY}), or null if the answer
 *               was no problem detail of that shape
 * @param errors the fields at fault, empty if none was named
 */
public record Problem(int status, @Nullable String title, @Nullable String detail, @Nullable String reason,
                     List<FieldError> errors) {

    public Problem {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }
}
