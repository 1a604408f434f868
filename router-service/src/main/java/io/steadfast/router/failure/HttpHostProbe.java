package io.steadfast.router.failure;

import io.steadfast.router.host.RegisteredHost;
import java.net.ConnectException;
import java.util.Locale;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Probes a host's {@code GET /actuator/health/liveness}: alive if it answers 2xx. The timeouts are those of the
 * client it is given; keep them short (a fraction of the heartbeat timeout), since a dead host that still
 * accepts TCP connections (a stopped process) is only told apart by the read timeout. Thread-safe.
 */
public final class HttpHostProbe implements HostProbe {

    static final String PATH = "/actuator/health/liveness";

    private final RestClient http;

    public HttpHostProbe(RestClient http) {
        this.http = http;
    }

    @Override
    public boolean answers(RegisteredHost host) {
        return probe(host) == Result.ANSWERED;
    }

    /**
     * {@link Result#REFUSED} when the connection was refused (a {@link ConnectException}, unless the operating system
     * gave up connecting: "Connection timed out" is no answer, like the client's own connect timeout).
     */
    @Override
    public Result probe(RegisteredHost host) {
        try {
            return http.get().uri(host.controlUrl().resolve(PATH)).retrieve().toBodilessEntity()
                    .getStatusCode().is2xxSuccessful() ? Result.ANSWERED : Result.NO_ANSWER;
        } catch (RestClientException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof ConnectException connect) {
                    boolean timedOut = connect.getMessage() != null
                            && connect.getMessage().toLowerCase(Locale.ROOT).contains("timed out");
                    return timedOut ? Result.NO_ANSWER : Result.REFUSED;
                }
            }
            return Result.NO_ANSWER;
        }
    }
}
