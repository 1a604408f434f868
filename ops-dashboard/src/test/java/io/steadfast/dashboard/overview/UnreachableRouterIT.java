package io.steadfast.dashboard.overview;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import io.steadfast.dashboard.FakeRouter;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** The router's port was bound and released, so nothing listens there: connections are refused. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(120)
class UnreachableRouterIT extends DashboardOverHttp {

    private static final URI GONE_ROUTER;

    static {
        try (FakeRouter router = FakeRouter.start()) {
            GONE_ROUTER = router.url();
        }
    }

    @DynamicPropertySource
    static void routerUrl(DynamicPropertyRegistry registry) {
        registry.add("steadfast.dashboard.router-url", GONE_ROUTER::toString);
    }

    @Test
    void answers200WithRouterUnreachableAndAMessageNamingTheUrlAndTheKey() {
        HttpResponse<String> response = http.get("/api/v1/overview");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode overview = DashboardHttp.json(response.body());
        assertThat(overview.get("routerReachable").asBoolean()).isFalse();
        assertThat(overview.get("routerUrl").asString()).isEqualTo(GONE_ROUTER.toString());
        assertThat(overview.get("error").asString())
                .contains(GONE_ROUTER + "/api/v1/hosts", "steadfast.dashboard.router-url");
        assertThat(overview.get("hosts")).isEmpty();
        assertThat(overview.get("topologies")).isEmpty();
    }

    @Test
    void answers502RouterUnreachableToEveryPassedOnCallNamingTheUrlAndTheKey() {
        List<HttpResponse<String>> answers = List.of(http.get("/api/v1/topologies"),
                http.get("/api/v1/topologies/wordcount"), http.get("/api/v1/topologies/wordcount/plan"),
                http.get("/api/v1/topologies/wordcount/checkpoints"), http.get("/api/v1/topologies/wordcount/votes"),
                http.get("/api/v1/recoveries?topology=wordcount"), http.get("/api/v1/hosts"),
                http.post("/api/v1/topologies", "application/json", "{\"id\":\"wordcount\"}"),
                http.delete("/api/v1/topologies/wordcount"));

        for (HttpResponse<String> answer : answers) {
            JsonNode problem = DashboardHttp.problem(answer, 502, "ROUTER_UNREACHABLE");
            assertThat(problem.get("title").asString()).isEqualTo("Router unreachable");
            assertThat(problem.get("detail").asString()).as(answer.request().uri().toString())
                    .contains(GONE_ROUTER.toString(), "steadfast.dashboard.router-url");
        }
    }

    @Test
    void reportsTheRouterDownWithUrlAndErrorButStaysLive() {
        JsonNode router = DashboardHttp.json(http.get("/actuator/health").body()).get("components").get("router");
        HttpResponse<String> liveness = http.get("/actuator/health/liveness");
        HttpResponse<String> readiness = http.get("/actuator/health/readiness");

        assertThat(router.get("status").asString()).isEqualTo("DOWN");
        assertThat(router.get("details").get("url").asString()).isEqualTo(GONE_ROUTER.toString());
        assertThat(router.get("details").get("error").asString()).contains(GONE_ROUTER + "/actuator/health");
        assertThat(liveness.statusCode()).isEqualTo(200);
        assertThat(DashboardHttp.json(liveness.body()).get("status").asString()).isEqualTo("UP");
        assertThat(readiness.statusCode()).isEqualTo(503);
        assertThat(DashboardHttp.json(readiness.body()).get("status").asString()).isEqualTo("DOWN");
    }
}
