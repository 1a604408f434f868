package io.steadfast.dashboard.overview;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.CannedRouter;
import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import io.steadfast.dashboard.FakeRouter;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(120)
class OverviewApiIT extends DashboardOverHttp {

    private static final FakeRouter ROUTER = CannedRouter.start();

    @DynamicPropertySource
    static void routerUrl(DynamicPropertyRegistry registry) {
        registry.add("steadfast.dashboard.router-url", () -> ROUTER.url().toString());
    }

    @AfterAll
    static void stopRouter() {
        ROUTER.close();
    }

    @BeforeEach
    void setUp() {
        ROUTER.answer("/api/v1/topologies/fraud", CannedRouter.FRAUD);
    }

    @Test
    void mergesHostsAndTheDetailOfEachTopologyIntoOneDocument() {
        HttpResponse<String> response = http.get("/api/v1/overview");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        JsonNode overview = DashboardHttp.json(response.body());
        assertThat(overview.get("routerUrl").asString()).isEqualTo(ROUTER.url().toString());
        assertThat(overview.get("routerReachable").asBoolean()).isTrue();
        assertThat(overview.get("error").isNull()).isTrue();
        assertThat(overview.get("fetchedAt").asString()).isNotBlank();

        JsonNode hosts = overview.get("hosts");
        assertThat(texts(hosts, "hostId")).containsExactly("host-1", "host-2");
        assertThat(texts(hosts, "status")).containsExactly("LIVE", "DEAD");
        assertThat(hosts.get(0).get("lastHeartbeat").asString()).isEqualTo("2026-01-02T03:04:05.250Z");
        assertThat(hosts.get(0).get("tasks")).hasSize(2);
        assertThat(hosts.get(1).get("tasks")).isEmpty();

        JsonNode topologies = overview.get("topologies");
        assertThat(texts(topologies, "id")).containsExactly("wordcount", "fraud");
        JsonNode wordcount = topologies.get(0);
        assertThat(wordcount.get("status").asString()).isEqualTo("RUNNING");
        assertThat(wordcount.get("deployedAt").asString()).isEqualTo("2026-01-02T03:00:00Z");
        assertThat(texts(wordcount.get("operators"), "operator")).containsExactly("source", "count");
        assertThat(wordcount.get("operators").get(0).get("eventsPerSecond").asDouble()).isEqualTo(125.5);
        assertThat(wordcount.get("operators").get(1).get("recordsOut").asLong()).isEqualTo(4);
        assertThat(texts(wordcount.get("tasks"), "task")).containsExactly("wordcount/source#0", "wordcount/count#0");
        assertThat(wordcount.has("spec")).isFalse();

        JsonNode failedTask = topologies.get(1).get("tasks").get(0);
        assertThat(failedTask.get("status").asString()).isEqualTo("FAILED");
        assertThat(failedTask.get("hostStatus").asString()).isEqualTo("DEAD");
        assertThat(failedTask.get("failure").asString()).isEqualTo("java.lang.IllegalStateException: model missing");
    }

    @Test
    void keepsTheListEntryAndTheErrorOfATopologyWhoseDetailFails() {
        ROUTER.answer("/api/v1/topologies/fraud", 500, "{\"status\":500,\"detail\":\"monitor broke\"}");

        JsonNode overview = DashboardHttp.json(http.get("/api/v1/overview").body());

        assertThat(overview.get("routerReachable").asBoolean()).isTrue();
        JsonNode fraud = overview.get("topologies").get(1);
        assertThat(fraud.get("id").asString()).isEqualTo("fraud");
        assertThat(fraud.get("status").asString()).isEqualTo("FAILED");
        assertThat(fraud.get("operators")).isEmpty();
        assertThat(fraud.get("error").asString()).contains("/api/v1/topologies/fraud", "HTTP 500", "monitor broke");
        assertThat(overview.get("topologies").get(0).get("error").isNull()).isTrue();
    }

    @Test
    void reportsTheRouterUpInHealthAndReadiness() {
        JsonNode health = DashboardHttp.json(http.get("/actuator/health").body());
        HttpResponse<String> readiness = http.get("/actuator/health/readiness");

        assertThat(health.get("components").get("router").get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("router").get("details").get("url").asString())
                .isEqualTo(ROUTER.url().toString());
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(DashboardHttp.json(readiness.body()).get("components").has("router")).isTrue();
    }

    private static List<String> texts(JsonNode array, String field) {
        return StreamSupport.stream(array.spliterator(), false).map(node -> node.get(field).asString()).toList();
    }
}
