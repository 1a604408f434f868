package io.steadfast.cluster.client;

import io.steadfast.protocol.problem.FieldError;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An RFC 9457 problem detail as the router sends it, in the shape every service shares
 * ({@link io.steadfast.protocol.problem.ProblemType}): its reason and its fields at fault.
 *
 * @param reason why the router refused, UPPER_SNAKE (e.g. {@code INVALID_TOPOLOGY}), or null if the answer was no
 *               problem detail
 */
public record Problem(int status, @Nullable String title, @Nullable String detail, @Nullable String reason,
        List<FieldError> errors) {

    public Problem {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }
}
