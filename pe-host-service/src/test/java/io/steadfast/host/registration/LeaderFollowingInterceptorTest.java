package io.steadfast.host.registration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.protocol.router.RouterHeaders;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
        RouterClients clients = new RouterClients(List.of(standby, leader), epoch);
        RestClient client = clients.client(Duration.ofSeconds(1), Duration.ofSeconds(2));

        assertThat(client.get().uri("/api/v1/hosts").retrieve().body(String.class)).isEqualTo("leader");
        assertThat(clients.current()).isEqualTo(leader);
        assertThat(client.get().uri("/api/v1/hosts").retrieve().body(String.class)).isEqualTo("leader");
    }

    @Test
    void triesTheNextRouterWhenOneCannotBeReached() throws IOException {
        URI gone = URI.create("http://127.0.0.1:" + freePort());
        URI leader = router("leader", 200, 1, null);
        RouterClients clients = new RouterClients(List.of(gone, leader), epoch);

        String answer = clients.client(Duration.ofMillis(500), Duration.ofSeconds(2)).get().uri("/api/v1/leader")
                .retrieve().body(String.class);

        assertThat(answer).isEqualTo("leader");
        assertThat(clients.current()).isEqualTo(leader);
    }

    @Test
    void ignoresTheAnswersOfADeposedRouter() throws IOException {
        URI newer = router("newer", 200, 3, null);
        URI deposed = router("deposed", 200, 2, null);
        RestClient toNewer = new RouterClients(List.of(newer), epoch).client(Duration.ofSeconds(1), Duration.ofSeconds(2));
        RestClient toDeposed = new RouterClients(List.of(deposed), epoch)
                .client(Duration.ofSeconds(1), Duration.ofSeconds(2));
        toNewer.get().uri("/api/v1/hosts").retrieve().body(String.class);

        assertThatThrownBy(() -> toDeposed.get().uri("/api/v1/hosts").retrieve().body(String.class))
                .isInstanceOf(ResourceAccessException.class).hasRootCauseInstanceOf(StaleRouterException.class)
                .hasMessageContaining("epoch 2, below 3");
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
