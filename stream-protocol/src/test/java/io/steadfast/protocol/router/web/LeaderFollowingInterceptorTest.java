package io.steadfast.protocol.router.web;

import io.steadfast.protocol.router.RouterEpoch;
import io.steadfast.protocol.router.StaleRouterException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.protocol.router.RouterEndpoints;
import io.steadfast.protocol.router.RouterEpoch;
import io.steadfast.protocol.router.RouterHeaders;
import io.steadfast.protocol.router.StaleRouterException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/** A host's router client against stub routers over HTTP: it follows the leader and ignores deposed ones. */
class LeaderFollowingInterceptorTest {

    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
    private final RouterEpoch epoch = new RouterEpoch();

    @AfterEach
    void stop() {
        servers.forEach(server -> server.stop(0));
    }

    @Test
    void followsTheLeaderAStandbyNames() throws IOException {
        URI leader = router("leader", 200, 2, null);
        URI standby = router("standby", 503, 0, leader);
        RouterEndpoints endpoints = new RouterEndpoints(List.of(standby, leader));
        RestClient client = client(endpoints);

        assertThat(client.get().uri("/api/v1/hosts").retrieve().body(String.class)).isEqualTo("leader");
        assertThat(endpoints.current()).isEqualTo(leader);
        assertThat(client.get().uri("/api/v1/hosts").retrieve().body(String.class)).isEqualTo("leader");
    }

    @Test
    void triesTheNextRouterWhenOneCannotBeReached() throws IOException {
        URI gone = URI.create("http://127.0.0.1:" + freePort());
        URI leader = router("leader", 200, 1, null);
        RouterEndpoints endpoints = new RouterEndpoints(List.of(gone, leader));

        String answer = client(endpoints).get().uri("/api/v1/leader").retrieve().body(String.class);

        assertThat(answer).isEqualTo("leader");
        assertThat(endpoints.current()).isEqualTo(leader);
    }

    @Test
    void ignoresTheAnswersOfADeposedRouter() throws IOException {
        URI newer = router("newer", 200, 3, null);
        URI deposed = router("deposed", 200, 2, null);
        RestClient toNewer = client(new RouterEndpoints(List.of(newer)));
        RestClient toDeposed = client(new RouterEndpoints(List.of(deposed)));
        toNewer.get().uri("/api/v1/hosts").retrieve().body(String.class);

        assertThatThrownBy(() -> toDeposed.get().uri("/api/v1/hosts").retrieve().body(String.class))
                .isInstanceOf(ResourceAccessException.class).hasRootCauseInstanceOf(StaleRouterException.class)
                .hasMessageContaining("epoch 2, below 3");
    }

    private RestClient client(RouterEndpoints endpoints) {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(Duration.ofMillis(500));
        requests.setReadTimeout(Duration.ofSeconds(2));
        return RestClient.builder().requestFactory(requests).baseUrl(endpoints.first().toString())
                .requestInterceptor(new LeaderFollowingInterceptor(endpoints, epoch)).build();
    }

    /** A stub router answering every request with {@code status}, its name, its epoch and the leader it names. */
    private URI router(String name, int status, long routerEpoch, URI leader) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> answer(exchange, status, name, routerEpoch, leader));
        server.start();
        servers.add(server);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static void answer(HttpExchange exchange, int status, String body, long routerEpoch, URI leader)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.getResponseHeaders().set(RouterHeaders.EPOCH, Long.toString(routerEpoch));
        if (leader != null) {
            exchange.getResponseHeaders().set(RouterHeaders.LEADER, leader.toString());
        }
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
