package io.steadfast.voter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.HostKind;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The voter-service started whole on random ports, with the host's runtime and data plane: its health is UP, and it
 * registers with the router as a host of kind VOTER, under an id that says it is a voter; it exposes the data plane's
 * counters and its build like every host.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(120)
class VoterServiceApplicationTest {

    private static final StandInRouter ROUTER = new StandInRouter();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void pointAtTheStandInRouter(DynamicPropertyRegistry properties) {
        properties.add("steadfast.host.router-url", () -> ROUTER.url().toString());
    }

    @AfterAll
    static void stopTheRouter() {
        ROUTER.close();
    }

    @Test
    void isHealthyAndRegistersWithTheRouterAsAVoter() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> "UP".equals(health().path("status").asString()));
        JsonNode health = health();
        assertThat(health.path("components").path("dataPlane").path("status").asString()).isEqualTo("UP");

        await().atMost(Duration.ofSeconds(60)).until(() -> !ROUTER.registrations().isEmpty());
        assertThat(ROUTER.registrations().get(0)).satisfies(registration -> {
            assertThat(registration.kind()).isEqualTo(HostKind.VOTER);
            assertThat(registration.hostId().value()).startsWith("voter-");
            assertThat(registration.controlUrl()).isEqualTo(URI.create("http://127.0.0.1:" + port));
            assertThat(registration.dataEndpoint()).startsWith("tcp://127.0.0.1:");
        });
    }

    @Test
    void exposesTheDataPlanesCountersAndWhatWasBuilt() throws Exception {
        assertThat(get("/actuator/prometheus")).contains("# TYPE steadfast_dataplane_frames_sent_total counter")
                .contains("# TYPE steadfast_dataplane_frames_dropped_total counter")
                .contains("# TYPE steadfast_dataplane_frames_resent_total counter");
        JsonNode info = JsonMapper.builder().build().readTree(get("/actuator/info"));
        assertThat(info.at("/build/artifact").asString()).isEqualTo("voter-service");
        assertThat(info.at("/java/version").asString()).isEqualTo(System.getProperty("java.version"));
    }

    private JsonNode health() throws IOException, InterruptedException {
        return JsonMapper.builder().build().readTree(get("/actuator/health"));
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).GET().build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", path).isEqualTo(200);
        return response.body();
    }
}
