package io.steadfast.host.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import org.springframework.validation.annotation.Validated;

/**
 * Settings of a processing-node host, prefix {@code steadfast.host}.
 *
 * @param id the host id, unique in the cluster; defaults to {@code host-} and six random characters
 * @param routerUrl base URL of the router this host registers with
 * @param advertisedUrl base URL the router uses to reach this host's REST API; defaults to
 *                      {@code http://127.0.0.1:<actual server port>}
 * @param data the data plane
 * @param heartbeatInterval how often the host sends its task reports to the router
 */
@Validated
@ConfigurationProperties("steadfast.host")
public record HostProperties(
        String id,
        @NotNull @DefaultValue("http://127.0.0.1:8080") URI routerUrl,
        @Nullable URI advertisedUrl,
        @Valid @DefaultValue Data data,
        @NotNull @DefaultValue("250ms") Duration heartbeatInterval) {

    private static final String ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

    public HostProperties {
        if (id == null || id.isBlank()) {
            id = "host-" + randomSuffix();
        }
        if (id.length() > 128) {
            throw new IllegalArgumentException("steadfast.host.id is " + id.length()
                    + " characters long; use at most 128");
        }
        if (heartbeatInterval != null && (heartbeatInterval.isNegative() || heartbeatInterval.isZero())) {
            throw new IllegalArgumentException("steadfast.host.heartbeat-interval must be positive, was "
                    + heartbeatInterval + "; use e.g. 250ms");
        }
    }

    /**
     * The data plane.
     *
     * @param bindAddress ZeroMQ endpoint the data plane binds, e.g. {@code tcp://127.0.0.1:*} for an ephemeral
     *                    port (the bound endpoint is what the host advertises)
     */
    public record Data(@NotBlank @DefaultValue("tcp://127.0.0.1:*") String bindAddress) {
    }

    private static String randomSuffix() {
        SecureRandom random = new SecureRandom();
        StringBuilder suffix = new StringBuilder(6);
        for (int i = 0; i < 6; i++) {
            suffix.append(ID_ALPHABET.charAt(random.nextInt(ID_ALPHABET.length())));
        }
        return suffix.toString();
    }
}
