package io.steadfast.host.registration;

import io.steadfast.protocol.router.RouterHeaders;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;

/**
 * Sends each call of a router client to the router that leads ({@link RouterEndpoints}): a 503 from a standby that
 * names the leader is followed at once (the call is sent again, there), an unreachable router sends the call to the
 * next configured one, once; an answer of a superseded epoch ({@link RouterEpoch}) fails as a
 * {@link StaleRouterException}. The clients are built with the first configured URL as their base; its prefix is
 * replaced by the current router's. Must be the last interceptor of its client: it executes a call twice at most.
 */
public final class LeaderFollowingInterceptor implements ClientHttpRequestInterceptor {

    private final RouterEndpoints endpoints;
    private final RouterEpoch epoch;

    public LeaderFollowingInterceptor(RouterEndpoints endpoints, RouterEpoch epoch) {
        this.endpoints = endpoints;
        this.epoch = epoch;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        URI router = endpoints.current();
        ClientHttpResponse response;
        try {
            response = execution.execute(to(router, request), body);
        } catch (IOException unreachable) {
            endpoints.failed(router);
            if (!endpoints.severalKnown()) {
                throw unreachable;
            }
            router = endpoints.current();
            response = execution.execute(to(router, request), body);
        }
        if (response.getStatusCode().value() == 503) {
            String leader = response.getHeaders().getFirst(RouterHeaders.LEADER);
            if (leader == null) {
                endpoints.failed(router);
                return response;
            }
            response.close();
            endpoints.follow(router, URI.create(leader));
            router = endpoints.current();
            response = execution.execute(to(router, request), body);
        }
        return admitted(router, response);
    }

    private ClientHttpResponse admitted(URI router, ClientHttpResponse response) throws IOException {
        String header = response.getHeaders().getFirst(RouterHeaders.EPOCH);
        if (header != null) {
            long answered = parse(header);
            if (!epoch.admit(answered)) {
                response.close();
                endpoints.failed(router);
                throw new StaleRouterException("The router at " + router + " answered in leadership epoch " + answered
                        + ", below " + epoch.highest() + " seen before: it has been deposed; its answer is ignored");
            }
        }
        return response;
    }

    private static long parse(String header) throws IOException {
        try {
            return Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            throw new IOException("The router sent a malformed " + RouterHeaders.EPOCH + " header: '" + header + "'");
        }
    }

    private HttpRequest to(URI router, HttpRequest request) {
        String base = stripSlash(endpoints.first().toString());
        String original = request.getURI().toString();
        if (!original.startsWith(base)) {
            return request; // a call with a URL of its own, not on the router client's base
        }
        URI target = URI.create(stripSlash(router.toString()) + original.substring(base.length()));
        return new HttpRequestWrapper(request) {
            @Override
            public URI getURI() {
                return target;
            }
        };
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
