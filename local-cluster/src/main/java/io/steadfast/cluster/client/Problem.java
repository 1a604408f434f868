package io.steadfast.cluster.client;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** An RFC 9457 problem detail as the router sends it, with its per-operator validation errors. */
public record Problem(int status, @Nullable String title, @Nullable String detail, List<FieldError> errors) {

    public Problem {
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /** One validation error: the operator and field it concerns, and what is wrong. */
    public record FieldError(@Nullable String operator, @Nullable String field, String message) {
    }
}
