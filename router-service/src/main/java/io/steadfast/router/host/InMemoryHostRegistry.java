package io.steadfast.router.host;

import io.steadfast.runtime.host.TaskReport;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;

/** A {@link HostRegistry} in a concurrent map; lost when the router restarts (hosts then re-register). */
public final class InMemoryHostRegistry implements HostRegistry {

    private final ConcurrentMap<HostId, RegisteredHost> hosts = new ConcurrentSkipListMap<>();

    @Override
    public RegisteredHost register(HostId id, HostKind kind, URI controlUrl, String dataEndpoint,
                                   @Nullable String session, @Nullable String instance, Instant now) {
        RegisteredHost host = RegisteredHost.registered(id, kind, controlUrl, dataEndpoint, session, instance, now);
        hosts.put(id, host);
        return host;
    }

    @Override
    public Optional<RegisteredHost> heartbeat(HostId id, List<TaskReport> tasks, Instant now) {
        return Optional.ofNullable(hosts.computeIfPresent(id, (key, host) -> host.withHeartbeat(now, tasks)));
    }

    @Override
    public Optional<RegisteredHost> find(HostId id) {
        return Optional.ofNullable(hosts.get(id));
    }

    @Override
    public List<RegisteredHost> all() {
        return List.copyOf(hosts.values());
    }
}
