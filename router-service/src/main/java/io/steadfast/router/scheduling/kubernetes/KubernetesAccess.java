package io.steadfast.router.scheduling.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router's calls to the Kubernetes API, and which of them the API refused (403: the router's service account
 * lacks a permission). Each refusal is logged at ERROR once, until the call succeeds again, and shown by
 * {@link KubernetesSchedulingHealthIndicator}. Thread-safe.
 */
public final class KubernetesAccess {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesAccess.class);
    private static final int FORBIDDEN = 403;

    private final String namespace;
    private final Clock clock;
    private final Map<String, Denial> denials = new ConcurrentSkipListMap<>();

    public KubernetesAccess(String namespace, Clock clock) {
        this.namespace = namespace;
        this.clock = clock;
    }

    /**
     * A call the API refused.
     *
     * @param verb the RBAC verb, e.g. {@code delete}
     * @param resource the RBAC resource, with its API group and subresource, e.g. {@code apps/statefulsets/scale}
     * @param namespace where
     * @param message what the API answered
     * @param at when it was first refused
     */
    public record Denial(String verb, String resource, String namespace, String message, Instant at) {

        /** What to grant, as a Role rule. */
        public String grant() {
            int slash = resource.indexOf('/');
            boolean grouped = slash > 0 && !resource.startsWith("pods");
            String group = grouped ? resource.substring(0, slash) : "";
            String name = grouped ? resource.substring(slash + 1) : resource;
            return "a Role in namespace " + namespace + " bound to the router's service account with the rule"
                    + " {apiGroups: [\"" + group + "\"], resources: [\"" + name + "\"], verbs: [\"" + verb + "\"]}"
                    + " (the Helm chart's router Role grants it)";
        }

        /** The sentence for the log and the health details. */
        public String describe() {
            return "the Kubernetes API refused to let the router " + verb + " " + resource + " in namespace "
                    + namespace + " (403 Forbidden: " + message + ")";
        }
    }

    public String namespace() {
        return namespace;
    }

    /**
     * Makes a call: remembers a 403 (and rethrows it), forgets an earlier refusal of the same verb and resource once
     * the call succeeds.
     */
    public <T> T call(String verb, String resource, Supplier<T> call) {
        try {
            T result = call.get();
            succeeded(verb, resource);
            return result;
        } catch (KubernetesClientException e) {
            if (e.getCode() == FORBIDDEN) {
                denied(verb, resource, e.getMessage());
            }
            throw e;
        }
    }

    /** Records a refusal seen elsewhere (the pod watch); logs it at ERROR if it is new. */
    public void denied(String verb, String resource, @Nullable String message) {
        Denial denial = new Denial(verb, resource, namespace, message == null ? "no message" : message,
                clock.instant());
        if (denials.putIfAbsent(key(verb, resource), denial) == null) {
            LOG.error("Host scheduling is impaired: {}. Grant {}. Until then the router does not see pod events or"
                    + " cannot replace failed hosts, and detects failures from heartbeats and data-plane reports"
                    + " alone; see the health component kubernetesScheduling", denial.describe(), denial.grant());
        }
    }

    /** Forgets an earlier refusal of this call. */
    public void succeeded(String verb, String resource) {
        Denial gone = denials.remove(key(verb, resource));
        if (gone != null) {
            LOG.info("The Kubernetes API now lets the router {} {} in namespace {}", verb, resource, namespace);
        }
    }

    /** The calls refused and not since made with success, sorted by verb and resource. */
    public List<Denial> denials() {
        return List.copyOf(denials.values());
    }

    /** The 403 in {@code failure} or its causes, if any. */
    public static Optional<KubernetesClientException> forbidden(@Nullable Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException e && e.getCode() == FORBIDDEN) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    private static String key(String verb, String resource) {
        return verb + " " + resource;
    }
}
