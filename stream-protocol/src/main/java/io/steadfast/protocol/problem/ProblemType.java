package io.steadfast.protocol.problem;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The shape every service's RFC 9457 problem details share: a {@code type} derived from the {@code reason}, and the
 * names of the extension members that carry ids. Clients branch on {@code reason} (or {@code type}); both are stable.
 */
public final class ProblemType {

    /** Why the request failed, in UPPER_SNAKE (e.g. {@code PLAN_NOT_HELD}); present in every problem. */
    public static final String REASON = "reason";
    /** The fields at fault, a list of {@link FieldError}; present when a request body or topology is invalid. */
    public static final String ERRORS = "errors";
    /** The topology concerned, its id. */
    public static final String TOPOLOGY = "topology";
    /** The task concerned, {@code topology/operator#subtask}. */
    public static final String TASK = "task";
    /** The host concerned, its id. */
    public static final String HOST = "host";
    /** The checkpoint concerned, a number. */
    public static final String CHECKPOINT_ID = "checkpointId";

    private static final String PREFIX = "urn:steadfast:problem:";
    private static final Pattern UPPER_SNAKE = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*");

    private ProblemType() {
    }

    /**
     * The reason of a problem whose members are {@code members}: its {@value #REASON} member, or {@code fallback}
     * (the name of its HTTP status, e.g. {@code NOT_FOUND}) when the handler that wrote it gave none.
     */
    public static String reasonOf(@Nullable Map<String, Object> members, String fallback) {
        Object reason = members == null ? null : members.get(REASON);
        return reason == null ? fallback : reason.toString();
    }

    /** Whether {@code reason} is a reason a problem can carry: UPPER_SNAKE, such as {@code PLAN_NOT_HELD}. */
    public static boolean isReason(String reason) {
        return UPPER_SNAKE.matcher(reason).matches();
    }

    /**
     * The {@code type} of a problem of {@code reason}: {@code urn:steadfast:problem:} and the reason in kebab case,
     * e.g. {@code PLAN_NOT_HELD} gives {@code urn:steadfast:problem:plan-not-held}. A URN, so that it names the kind
     * of problem without naming a host that would have to serve it.
     *
     * @throws IllegalArgumentException if {@code reason} is not UPPER_SNAKE
     */
    public static URI of(String reason) {
        if (!isReason(reason)) {
            throw new IllegalArgumentException("Problem reason must be UPPER_SNAKE, e.g. PLAN_NOT_HELD, was '"
                    + reason + "'");
        }
        return URI.create(PREFIX + reason.toLowerCase(Locale.ROOT).replace('_', '-'));
    }
}
