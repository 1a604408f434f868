package io.steadfast.dashboard.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the ops dashboard, prefix {@code steadfast.dashboard}.
 *
 * @param routerUrl base URL of the router whose REST API the dashboard reads, http or https; or the URLs of every
 *                  router replica, separated by commas: the dashboard follows the one that leads
 * @param routerClient calls from the dashboard to the router
 * @param events the live stream of overviews pushed to open pages
 * @param routerHealth the {@code router} health indicator
 * @param faultInjection whether the page may kill hosts
 */
@Validated
@ConfigurationProperties("steadfast.dashboard")
public record DashboardProperties(
        @NotEmpty @DefaultValue("http://127.0.0.1:8080") List<URI> routerUrl,
        @Valid @DefaultValue RouterClient routerClient,
        @Valid @DefaultValue Events events,
        @Valid @DefaultValue RouterHealth routerHealth,
        @Valid @DefaultValue FaultInjection faultInjection) {

    public DashboardProperties {
        for (URI url : routerUrl == null ? List.<URI>of() : routerUrl) {
            String scheme = url.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || url.getHost() == null
                    || url.getRawQuery() != null || url.getRawFragment() != null) {
                throw new IllegalArgumentException("steadfast.dashboard.router-url is '" + url + "', which is not"
                        + " an http(s) base URL with a host; set it to the router's base URL, e.g."
                        + " http://127.0.0.1:8080");
            }
        }
    }

    /**
     * Calls from the dashboard to the router. Short on purpose: the page refreshes every second, and a slow
     * router must show up as unreachable rather than hold the feed.
     *
     * @param connectTimeout how long to wait for a TCP connection to the router
     * @param readTimeout how long to wait for the router's answer to one request
     */
    public record RouterClient(@NotNull @DefaultValue("1s") Duration connectTimeout,
                               @NotNull @DefaultValue("3s") Duration readTimeout) {

        public RouterClient {
            requirePositive("steadfast.dashboard.router-client.connect-timeout", connectTimeout);
            requirePositive("steadfast.dashboard.router-client.read-timeout", readTimeout);
        }
    }

    /**
     * The server-sent events stream {@code /api/v1/events}.
     *
     * @param interval how often a fresh overview is fetched from the router and pushed to every open page
     * @param emitterTimeout how long one stream stays open; the browser's EventSource then reconnects by itself
     */
    public record Events(@NotNull @DefaultValue("1s") Duration interval,
                         @NotNull @DefaultValue("30m") Duration emitterTimeout) {

        public Events {
            requirePositive("steadfast.dashboard.events.interval", interval);
            requirePositive("steadfast.dashboard.events.emitter-timeout", emitterTimeout);
            if (interval != null && emitterTimeout != null && emitterTimeout.compareTo(interval) <= 0) {
                throw new IllegalArgumentException("steadfast.dashboard.events.emitter-timeout (" + emitterTimeout
                        + ") must be longer than steadfast.dashboard.events.interval (" + interval
                        + "), or a stream would close before its first event; raise the timeout");
            }
        }
    }

    /**
     * The {@code router} health indicator.
     *
     * @param maxAge how long one answer of the router's {@code /actuator/health} counts; an older one is asked again
     */
    public record RouterHealth(@NotNull @DefaultValue("5s") Duration maxAge) {

        public RouterHealth {
            requirePositive("steadfast.dashboard.router-health.max-age", maxAge);
        }
    }

    /**
     * Fault injection from the page ({@code POST /api/v1/hosts/{hostId}/kill}). Off by default: anyone who can open
     * the dashboard could halt a host. The local launcher turns it on, as its hosts have fault injection on too; a
     * host halts only if its own {@code steadfast.host.fault-injection.enabled} is on as well.
     *
     * @param enabled whether the dashboard passes a kill on to a host, and the page shows a Kill button per host
     */
    public record FaultInjection(@DefaultValue("false") boolean enabled) {
    }

    private static void requirePositive(String key, Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new IllegalArgumentException(key + " is " + value + " but must be positive; set it to e.g. 1s");
        }
    }
}
