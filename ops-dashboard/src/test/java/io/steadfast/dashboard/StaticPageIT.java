package io.steadfast.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * The page as the dashboard serves it, whatever it holds: its {@code {{/path}}} placeholders (if any) replaced with
 * versioned URLs, and every script and stylesheet it links served. The page needs no router to be served;
 * 127.0.0.1:9 (discard) is never answered.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.router-url=http://127.0.0.1:9")
@Timeout(120)
class StaticPageIT extends DashboardOverHttp {

    /** Any absolute URL: the page must load nothing from elsewhere at run time. */
    private static final Pattern ABSOLUTE_URL = Pattern.compile("(https?:)?//[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");
    private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}\\s]+)\\s*}}");
    private static final Pattern ASSET_LINK = Pattern.compile("(?:src|href)=\"([^\"#?:]+\\.(?:js|css))\"");

    @Autowired
    private ResourceUrlProvider resourceUrls;

    @Test
    void servesIndexHtmlAtTheRootForTheBrowserToRevalidate() {
        HttpResponse<String> page = http.get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-cache");
        assertThat(page.body()).contains("<html").doesNotContain("{{");
        assertThat(http.get("/index.html").body()).isEqualTo(page.body());

        String etag = page.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> unchanged = http.send(http.request("/").header("If-None-Match", etag));
        assertThat(unchanged.statusCode()).isEqualTo(304);
    }

    @Test
    void replacesEachPlaceholderOfIndexHtmlWithAVersionedUrlKeptForAYear() throws IOException {
        String template = new ClassPathResource("static/index.html").getContentAsString(StandardCharsets.UTF_8);
        String page = http.get("/").body();

        Matcher placeholder = PLACEHOLDER.matcher(template);
        while (placeholder.find()) {
            String path = placeholder.group(1).startsWith("/") ? placeholder.group(1) : "/" + placeholder.group(1);
            String versioned = resourceUrls.getForLookupPath(path);
            assertThat(versioned).as(path).matches(".*-[0-9a-f]{32}\\.[a-z]+");
            assertThat(page).contains("\"" + versioned + "\"");
            HttpResponse<String> asset = http.get(versioned);
            assertThat(asset.statusCode()).as(versioned).isEqualTo(200);
            assertThat(asset.headers().firstValue("Cache-Control")).as(versioned).hasValueSatisfying(
                    value -> assertThat(value).contains("max-age=31536000"));
        }
    }

    @Test
    void servesEveryScriptAndStylesheetThePageLinks() {
        List<String> assets = linkedAssets(http.get("/").body());

        assertThat(assets).isNotEmpty();
        for (String asset : assets) {
            HttpResponse<String> response = http.get(asset);
            assertThat(response.statusCode()).as(asset).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).as(asset).hasValueSatisfying(
                    type -> assertThat(type).containsAnyOf("javascript", "text/css"));
        }
    }

    @Test
    void loadsNothingFromOtherSites() {
        List<String> paths = new ArrayList<>(List.of("/"));
        // The page's own assets; a WebJar's library is not ours to scan (its comments name its project's site).
        linkedAssets(http.get("/").body()).stream().filter(path -> !path.startsWith("/webjars/")).forEach(paths::add);
        for (String path : paths) {
            HttpResponse<String> response = http.get(path);
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            String body = response.body().replace(SVG_NAMESPACE, "");
            assertThat(ABSOLUTE_URL.matcher(body).find()).as("an absolute URL in " + path).isFalse();
        }
    }

    /** The scripts and stylesheets of {@code page}, as paths from the root. */
    private static List<String> linkedAssets(String page) {
        List<String> assets = new ArrayList<>();
        Matcher link = ASSET_LINK.matcher(page);
        while (link.find()) {
            assets.add(URI.create("/").resolve(link.group(1)).getPath());
        }
        return assets;
    }
}
