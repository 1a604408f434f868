package io.steadfast.host.registration;

import io.steadfast.host.config.ServiceClients;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.web.client.RestClient;

/**
 * The clients of this host's calls to the router (registration and heartbeats, checkpoint acks, suspicion reports):
 * each follows the router that leads among the configured ones ({@link LeaderFollowingInterceptor}) and shares one
 * {@link RouterEpoch} with the check of the router's calls to this host.
 */
public final class RouterClients {

    private final RouterEndpoints endpoints;
    private final RouterEpoch epoch;

    public RouterClients(List<URI> routerUrls, RouterEpoch epoch) {
        this.endpoints = new RouterEndpoints(routerUrls);
        this.epoch = epoch;
    }

    /** A client with the timeouts given whose calls go to the leading router. */
    public RestClient client(Duration connectTimeout, Duration readTimeout) {
        return ServiceClients.client(connectTimeout, readTimeout).mutate().baseUrl(endpoints.first().toString())
                .requestInterceptor(new LeaderFollowingInterceptor(endpoints, epoch)).build();
    }

    /** The router the next call goes to. */
    public URI current() {
        return endpoints.current();
    }
}
