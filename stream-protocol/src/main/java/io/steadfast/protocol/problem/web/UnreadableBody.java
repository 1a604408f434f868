package io.steadfast.protocol.problem.web;

import io.steadfast.protocol.problem.FieldError;
import java.util.Map;
import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;

/**
 * Where and why Spring MVC could not read a request body: the JSON path of the field Jackson could not read, and the
 * reason in the words of what refused the value (an id's factory says what form the id takes) without Jackson's
 * location and reference chain. Spring's own problem says only "Failed to read request"; a service names the field
 * with this in the shape of its other field problems.
 *
 * @param field  the JSON path of the field, e.g. {@code acks[0].task}, map entries as {@code incarnations['w/a#0']};
 *               empty when no field is to blame (the body is no JSON)
 * @param reason why, at most {@value #MAX_REASON} characters and an ellipsis
 */
public record UnreadableBody(String field, String reason) {

    /** Long enough for what an id's factory says; Jackson's messages about a mismatched type can run on. */
    static final int MAX_REASON = 300;

    /** What {@code e} says went wrong, and where. */
    public static UnreadableBody of(HttpMessageNotReadableException e) {
        String field = e.getCause() instanceof JacksonException json ? pathOf(json) : "";
        Throwable cause = e.getMostSpecificCause();
        String reason = String.valueOf(cause instanceof JacksonException json ? json.getOriginalMessage()
                : cause.getMessage());
        return new UnreadableBody(field, reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) + "…"
                : reason);
    }

    /** Whether a field is to blame rather than the body as a whole. */
    public boolean namesField() {
        return !field.isEmpty();
    }

    /** As one of a problem's {@code errors}: the field, or {@code (body)} when none is to blame. */
    public FieldError asFieldError() {
        return FieldError.of(namesField() ? field : "(body)", "is unreadable: " + reason);
    }

    private static String pathOf(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference step : e.getPath()) {
            if (step.from() instanceof Map<?, ?>) {
                path.append("['").append(step.getPropertyName()).append("']");
            } else if (step.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(step.getPropertyName());
            } else {
                path.append('[').append(step.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
