package io.steadfast.dashboard.settings;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** Settings as the dashboard starts by default; no router answers (127.0.0.1:9, discard), none is needed. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.router-url=http://127.0.0.1:9")
@Timeout(120)
class SettingsApiIT extends DashboardOverHttp {

    @Test
    void tellsThePageTheRouterUrlsThatFaultInjectionIsOffVotesAndTheVersion() {
        HttpResponse<String> response = http.get("/api/v1/settings");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        JsonNode settings = DashboardHttp.json(response.body());
        assertThat(settings.get("routerUrls")).hasSize(1);
        assertThat(settings.get("routerUrls").get(0).asString()).isEqualTo("http://127.0.0.1:9");
        assertThat(settings.get("faultInjection").asBoolean()).isFalse();
        assertThat(settings.get("votes").asBoolean()).isTrue();
        // From META-INF/build-info.properties, which the build writes: the project's version, not "unknown".
        assertThat(settings.get("version").asString()).matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void refusesToKillAHostWhileFaultInjectionIsOffNamingTheSetting() {
        JsonNode problem = DashboardHttp.problem(http.post("/api/v1/hosts/host-1/kill"), 403,
                "FAULT_INJECTION_DISABLED");

        assertThat(problem.get("detail").asString())
                .contains("'host-1'", "steadfast.dashboard.fault-injection.enabled=true");
    }
}
