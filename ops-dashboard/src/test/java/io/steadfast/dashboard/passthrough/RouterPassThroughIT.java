package io.steadfast.dashboard.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.CannedRouter;
import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import io.steadfast.dashboard.FakeRouter;
import io.steadfast.dashboard.FakeRouter.Answer;
import io.steadfast.protocol.router.RouterHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The router's API through the dashboard, against two stand-in router replicas over real HTTP: the first configured
 * is a standby that answers every call with 503 naming the other as leader, so every answer here is the leader's
 * only if the dashboard follows it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(120)
class RouterPassThroughIT extends DashboardOverHttp {

    private static final FakeRouter LEADER = CannedRouter.start();
    private static final FakeRouter STANDBY = FakeRouter.start();

    private static final String INVALID_TOPOLOGY = """
            {"type":"urn:steadfast:problem:invalid-topology","title":"Invalid topology","status":400,\
            "detail":"operators[1].parallelism must be at least 1","reason":"INVALID_TOPOLOGY",\
            "errors":[{"field":"operators[1].parallelism","operator":"count","message":"must be at least 1"}]}""";

    /** Every read the page may pass on, and what the leader answers to it. */
    private static final Map<String, String> READS = Map.of(
            "/api/v1/topologies", CannedRouter.TOPOLOGIES,
            "/api/v1/topologies/wordcount", CannedRouter.WORDCOUNT,
            "/api/v1/topologies/wordcount/plan", "{\"topology\":\"wordcount\",\"epoch\":3,\"tasks\":[]}",
            "/api/v1/topologies/wordcount/checkpoints", "[{\"id\":7,\"status\":\"COMPLETED\"}]",
            "/api/v1/topologies/wordcount/checkpoints/7", "{\"topology\":\"wordcount\",\"checkpointId\":7,"
                    + "\"tasks\":[{\"task\":\"wordcount/count#0\",\"acked\":true}],\"missingTasks\":[]}",
            "/api/v1/topologies/wordcount/votes", "{\"topology\":\"wordcount\",\"operators\":[]}",
            "/api/v1/recoveries", "[{\"id\":\"r-1\",\"topology\":\"wordcount\"}]",
            "/api/v1/hosts", CannedRouter.HOSTS);

    @DynamicPropertySource
    static void routerUrls(DynamicPropertyRegistry registry) {
        registry.add("steadfast.dashboard.router-url", () -> STANDBY.url() + "," + LEADER.url());
    }

    @AfterAll
    static void stopRouters() {
        LEADER.close();
        STANDBY.close();
    }

    @BeforeEach
    void setUp() {
        STANDBY.otherwise(new Answer(503, "application/problem+json", "{\"status\":503,\"reason\":\"NOT_LEADER\"}",
                Map.of(RouterHeaders.LEADER, LEADER.url().toString())));
        READS.forEach(LEADER::answer);
    }

    @Test
    void passesEachReadOnWithTheLeadersStatusBodyAndContentType() {
        READS.forEach((path, body) -> {
            HttpResponse<String> response = http.get(path);

            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).as(path).hasValue("application/json");
            assertThat(response.body()).as(path).isEqualTo(body);
            assertThat(LEADER.requests("GET", path)).as(path).isNotEmpty();
        });
    }

    @Test
    void followsTheLeaderThatTheStandbyReplicaNames() {
        HttpResponse<String> response = http.get("/api/v1/topologies");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(CannedRouter.TOPOLOGIES);
        // The standby was asked first (by this test or an earlier one), and the leader answered since.
        assertThat(STANDBY.requests()).isNotEmpty();
        assertThat(LEADER.requests("GET", "/api/v1/topologies")).isNotEmpty();
    }

    @Test
    void passesTheQueryStringOnAsThePageSentIt() {
        HttpResponse<String> response = http.get("/api/v1/recoveries?topology=wordcount&note=a%20b%26c");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(LEADER.requests("GET", "/api/v1/recoveries")).last()
                .satisfies(request -> assertThat(request.query()).isEqualTo("topology=wordcount&note=a%20b%26c"));
    }

    @Test
    void passesTheRoutersErrorOnUnchanged() {
        Map<String, String> notFound = Map.of(
                "/api/v1/topologies/gone/checkpoints",
                "{\"status\":404,\"reason\":\"NOT_FOUND\",\"detail\":\"No topology 'gone'\"}",
                "/api/v1/topologies/wordcount/checkpoints/3",
                "{\"status\":404,\"reason\":\"CHECKPOINT_NOT_FOUND\",\"checkpointId\":3}");
        notFound.forEach((path, problem) -> LEADER.answer(path, 404, problem));

        notFound.forEach((path, problem) -> {
            HttpResponse<String> response = http.get(path);

            assertThat(response.statusCode()).as(path).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type")).as(path).hasValue("application/problem+json");
            assertThat(response.body()).as(path).isEqualTo(problem);
        });
    }

    @Test
    void passesAContentTypeOfTheRoutersOwnOn() {
        LEADER.answer("GET", "/api/v1/topologies/fraud/plan",
                new Answer(200, "application/vnd.steadfast.plan+json;charset=UTF-8", "{\"epoch\":4}", Map.of()));

        HttpResponse<String> response = http.get("/api/v1/topologies/fraud/plan");

        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue("application/vnd.steadfast.plan+json;charset=UTF-8");
        assertThat(response.body()).isEqualTo("{\"epoch\":4}");
    }

    @Test
    void deploysATopologyPassingItsBodyAndTheRouters201On() {
        String spec = "{\"id\":\"wordcount\",\"operators\":[{\"id\":\"source\",\"type\":\"generator\"}]}";
        String submitted = "{\"id\":\"wordcount\",\"status\":\"RUNNING\",\"tasks\":[],\"warnings\":[]}";
        LEADER.answer("POST", "/api/v1/topologies", Answer.json(201, submitted));

        HttpResponse<String> response = http.post("/api/v1/topologies", "application/json", spec);

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo(submitted);
        assertThat(LEADER.requests("POST", "/api/v1/topologies")).last().satisfies(received -> {
            assertThat(received.body()).isEqualTo(spec);
            assertThat(received.contentType()).isEqualTo("application/json");
        });
    }

    @Test
    void passesTheRoutersInvalidTopologyProblemOnUnchanged() {
        LEADER.answer("POST", "/api/v1/topologies", Answer.json(400, INVALID_TOPOLOGY));

        HttpResponse<String> response = http.post("/api/v1/topologies", "application/json", "{\"id\":\"x\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).isEqualTo(INVALID_TOPOLOGY);
        JsonNode error = DashboardHttp.json(response.body()).get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("operators[1].parallelism");
    }

    @Test
    void cancelsATopologyWithTheRouters204Or404() {
        LEADER.answer("DELETE", "/api/v1/topologies/wordcount", Answer.empty(204));

        HttpResponse<String> cancelled = http.delete("/api/v1/topologies/wordcount");
        HttpResponse<String> unknown = http.delete("/api/v1/topologies/never-deployed");

        assertThat(cancelled.statusCode()).isEqualTo(204);
        assertThat(cancelled.body()).isEmpty();
        assertThat(LEADER.requests("DELETE", "/api/v1/topologies/wordcount")).isNotEmpty();
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(DashboardHttp.json(unknown.body()).get("detail").asString()).isEqualTo("no such path");
    }

    @Test
    void refusesAnInvalidTopologyIdNamingTheFieldWithoutAskingTheRouter() {
        JsonNode problem = DashboardHttp.problem(http.get("/api/v1/topologies/Not_An_Id/plan"), 400,
                "INVALID_REQUEST");

        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("id");
        assertThat(problem.get("detail").asString()).contains("'Not_An_Id'", "GET /api/v1/topologies");
        assertThat(LEADER.requests()).noneMatch(request -> request.path().contains("Not_An_Id"));
    }

    @Test
    void refusesACheckpointIdThatIsNoNumberNamingTheFieldWithoutAskingTheRouter() {
        for (String invalid : List.of("-1", "07", "latest", "1e3", "99999999999999999999")) {
            JsonNode problem = DashboardHttp.problem(http.get("/api/v1/topologies/wordcount/checkpoints/" + invalid),
                    400, "INVALID_REQUEST");

            assertThat(problem.get("errors").get(0).get("field").asString()).as(invalid).isEqualTo("checkpointId");
            assertThat(problem.get("detail").asString()).as(invalid).contains("'" + invalid + "'");
        }
        assertThat(LEADER.requests()).noneMatch(request -> request.path().startsWith(
                "/api/v1/topologies/wordcount/checkpoints/") && !request.path().matches(".*/checkpoints/[37]"));
    }

    @Test
    void passesOnNoPathOrMethodOutsideTheWhitelist() {
        HttpResponse<String> results = http.get("/api/v1/topologies/wordcount/results/count");
        HttpResponse<String> register = http.post("/api/v1/hosts", "application/json", "{\"hostId\":\"x\"}");
        HttpResponse<String> heartbeat = http.send(http.request("/api/v1/hosts/host-1/heartbeat")
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json"));
        HttpResponse<String> leader = http.get("/api/v1/leader");
        HttpResponse<String> ack = http.post("/api/v1/topologies/wordcount/checkpoints/7/acks", "application/json",
                "{\"task\":\"wordcount/count#0\"}");
        HttpResponse<String> trigger = http.post("/api/v1/topologies/wordcount/checkpoints/7", "application/json",
                "{}");

        assertThat(results.statusCode()).isEqualTo(404);
        assertThat(register.statusCode()).isEqualTo(405);
        assertThat(heartbeat.statusCode()).isEqualTo(404);
        assertThat(leader.statusCode()).isEqualTo(404);
        assertThat(ack.statusCode()).isEqualTo(404);
        assertThat(trigger.statusCode()).isEqualTo(405);
        assertThat(LEADER.requests()).noneMatch(request -> request.path().contains("/results/")
                || request.path().contains("/heartbeat") || request.path().equals("/api/v1/leader")
                || request.method().equals("POST") && (request.path().equals("/api/v1/hosts")
                || request.path().startsWith("/api/v1/topologies/wordcount/checkpoints")));
    }
}
