package io.steadfast.router.host;

import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The hosts that registered with the router. In memory for now ({@link InMemoryHostRegistry}); a store-backed
 * implementation replaces it without touching callers. Implementations are thread-safe.
 */
public interface HostRegistry {

    /** Registers a PE host naming no session, or replaces one with the same id; counts as a heartbeat. */
    default RegisteredHost register(HostId id, URI controlUrl, String dataEndpoint, Instant now) {
        return register(id, HostKind.PE, controlUrl, dataEndpoint, null, now);
    }

    /** Registers a host of {@code kind} with its session, naming no instance; see the method below. */
    default RegisteredHost register(HostId id, HostKind kind, URI controlUrl, String dataEndpoint,
                                    @Nullable String session, Instant now) {
        return register(id, kind, controlUrl, dataEndpoint, session, null, now);
    }

    /**
     * Registers a host of {@code kind} with its session and instance (the pod uid on Kubernetes), or replaces one with
     * the same id (whatever kind it was); counts as a heartbeat.
     */
    RegisteredHost register(HostId id, HostKind kind, URI controlUrl, String dataEndpoint, @Nullable String session,
                            @Nullable String instance, Instant now);

    /** Records a heartbeat; empty if the host is not registered (it must register again). */
    Optional<RegisteredHost> heartbeat(HostId id, List<TaskReport> tasks, Instant now);

    Optional<RegisteredHost> find(HostId id);

    /** Every registered host, sorted by id. */
    List<RegisteredHost> all();
}
