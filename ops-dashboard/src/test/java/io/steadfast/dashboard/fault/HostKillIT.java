package io.steadfast.dashboard.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import io.steadfast.dashboard.FakeRouter;
import io.steadfast.dashboard.FakeRouter.Answer;
import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Killing hosts with fault injection on, against a stand-in router and stand-in hosts over real HTTP: one that
 * accepts, one whose port nothing listens on, one whose own fault injection is off (404), one that fails (500).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.fault-injection.enabled=true")
@Timeout(120)
class HostKillIT extends DashboardOverHttp {

    private static final String KILL = "/api/v1/fault/kill";
    private static final FakeRouter ROUTER = FakeRouter.start();
    private static final FakeRouter ACCEPTING_HOST = FakeRouter.start().answer("POST", KILL, Answer.empty(202));
    private static final FakeRouter HOST_WITHOUT_FAULT_INJECTION = FakeRouter.start();
    private static final FakeRouter FAILING_HOST = FakeRouter.start()
            .answer("POST", KILL, Answer.json(500, "{\"status\":500}"));
    private static final URI GONE_HOST;

    static {
        try (FakeRouter gone = FakeRouter.start()) {
            GONE_HOST = gone.url();
        }
    }

    @DynamicPropertySource
    static void routerUrl(DynamicPropertyRegistry registry) {
        registry.add("steadfast.dashboard.router-url", () -> ROUTER.url().toString());
    }

    @AfterAll
    static void stopServers() {
        ROUTER.close();
        ACCEPTING_HOST.close();
        HOST_WITHOUT_FAULT_INJECTION.close();
        FAILING_HOST.close();
    }

    @BeforeEach
    void setUp() {
        ROUTER.answer("/api/v1/hosts", "[" + String.join(",", host("host-1", ACCEPTING_HOST.url()),
                host("host-2", GONE_HOST), host("host-3", HOST_WITHOUT_FAULT_INJECTION.url()),
                host("voter-1", FAILING_HOST.url())) + "]");
    }

    private static String host(String id, URI controlUrl) {
        return "{\"hostId\":\"" + id + "\",\"kind\":\"PE\",\"controlUrl\":\"" + controlUrl
                + "\",\"dataEndpoint\":\"tcp://127.0.0.1:1\",\"status\":\"LIVE\",\"lastHeartbeat\":null,\"tasks\":[]}";
    }

    @Test
    void killsAHostThroughItsFaultInjectionEndpointAndAnswers202() {
        HttpResponse<String> response = http.post("/api/v1/hosts/host-1/kill");

        assertThat(response.statusCode()).isEqualTo(202);
        JsonNode accepted = DashboardHttp.json(response.body());
        assertThat(accepted.get("host").asString()).isEqualTo("host-1");
        assertThat(accepted.get("controlUrl").asString()).isEqualTo(ACCEPTING_HOST.url().toString());
        assertThat(ACCEPTING_HOST.requests("POST", KILL)).hasSize(1);
    }

    @Test
    void answers404ForAHostTheRouterDoesNotListNamingThoseItDoes() {
        JsonNode problem = DashboardHttp.problem(http.post("/api/v1/hosts/host-9/kill"), 404, "HOST_NOT_FOUND");

        assertThat(problem.get("detail").asString()).contains("'host-9'", "host-1, host-2, host-3, voter-1");
    }

    @Test
    void answers502HostUnreachableWhenNothingListensAtTheControlUrl() {
        JsonNode problem = DashboardHttp.problem(http.post("/api/v1/hosts/host-2/kill"), 502, "HOST_UNREACHABLE");

        assertThat(problem.get("detail").asString()).contains(GONE_HOST + KILL, "'host-2'");
    }

    @Test
    void answers502NamingTheHostsSettingWhenTheHostAnswers404() {
        JsonNode problem = DashboardHttp.problem(http.post("/api/v1/hosts/host-3/kill"), 502, "HOST_FAULT_INJECTION_DISABLED");

        assertThat(problem.get("detail").asString()).contains("'host-3'", "steadfast.host.fault-injection.enabled");
        assertThat(HOST_WITHOUT_FAULT_INJECTION.requests("POST", KILL)).isNotEmpty();
    }

    @Test
    void answers502HostErrorWhenTheHostFails() {
        JsonNode problem = DashboardHttp.problem(http.post("/api/v1/hosts/voter-1/kill"), 502, "HOST_ERROR");

        assertThat(problem.get("detail").asString()).contains("HTTP 500", "'voter-1'");
    }

    @Test
    void tellsThePageThatFaultInjectionIsOn() {
        JsonNode settings = DashboardHttp.json(http.get("/api/v1/settings").body());

        assertThat(settings.get("faultInjection").asBoolean()).isTrue();
    }
}
