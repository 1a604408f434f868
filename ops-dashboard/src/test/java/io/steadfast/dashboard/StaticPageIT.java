package io.steadfast.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The page needs no router to be served; 127.0.0.1:9 (discard) is never answered. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.router-url=http://127.0.0.1:9")
@Timeout(120)
class StaticPageIT {

    /** Any absolute URL: the page must load nothing from elsewhere at run time. */
    private static final Pattern ABSOLUTE_URL = Pattern.compile("(https?:)?//[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");
    private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";

    @LocalServerPort
    private int port;
    private DashboardHttp http;

    @BeforeEach
    void setUp() {
        http = new DashboardHttp(port);
    }

    @Test
    void servesIndexHtmlAtTheRootLinkingItsScriptAndStylesheet() {
        HttpResponse<String> page = http.get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).contains("<script src=\"app.js\"", "<link rel=\"stylesheet\" href=\"app.css\">",
                "id=\"hosts-body\"", "id=\"topologies\"", "role=\"alert\"");
        assertThat(http.get("/index.html").body()).isEqualTo(page.body());
    }

    @Test
    void servesAppJsThatListensToTheEventStreamAndFallsBackToPolling() {
        HttpResponse<String> script = http.get("/app.js");

        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).contains("javascript"));
        assertThat(script.body()).contains("'/api/v1/events'", "new EventSource(", "'/api/v1/overview'", "fetch(");
    }

    @Test
    void loadsNothingFromOtherSites() {
        for (String path : new String[] {"/", "/app.js", "/app.css"}) {
            HttpResponse<String> response = http.get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            String body = response.body().replace(SVG_NAMESPACE, "");
            assertThat(ABSOLUTE_URL.matcher(body).find()).as("an absolute URL in " + path).isFalse();
        }
    }
}
