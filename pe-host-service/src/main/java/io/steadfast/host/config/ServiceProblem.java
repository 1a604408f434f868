package io.steadfast.host.config;

import io.steadfast.protocol.problem.ProblemType;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.web.client.HttpClientErrorException;

/**
 * The problem detail (RFC 9457) another service answered a call of this host with, as its properties: the
 * checkpoint-service names in them what it refused and why.
 *
 * @param properties the problem's members, e.g. {@code reason}, {@code detail}, {@code tasks}
 */
public record ServiceProblem(Map<?, ?> properties) {

    /** The reason the checkpoint-service gives when it refuses what a superseded copy of a task sent. */
    public static final String SUPERSEDED_INCARNATION = "SUPERSEDED_INCARNATION";

    /** The problem of an error answer; empty if its body is not one. */
    public static Optional<ServiceProblem> of(HttpClientErrorException e) {
        try {
            return Optional.ofNullable(e.getResponseBodyAs(Map.class)).map(ServiceProblem::new);
        } catch (RuntimeException notJson) {
            return Optional.empty();
        }
    }

    /** Whether it refuses what a copy of a task sent because a newer incarnation of the task took over. */
    public boolean isSuperseded() {
        return SUPERSEDED_INCARNATION.equals(properties.get(ProblemType.REASON));
    }

    public @Nullable Object get(String member) {
        return properties.get(member);
    }

    /** A numeric member, or {@code otherwise} if it is missing or not a number. */
    public long number(String member, long otherwise) {
        return properties.get(member) instanceof Number number ? number.longValue() : otherwise;
    }
}
