package io.steadfast.dashboard.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.dashboard.DashboardOverHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.DigestUtils;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * Versioned asset URLs and their caching, with a page of placeholders of this test's own
 * (src/test/resources/pages/placeholders.html, naming the assets under src/test/resources/static/fixture and the
 * ECharts WebJar), rendered with the running dashboard's resource chain and fetched over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.router-url=http://127.0.0.1:9")
@Timeout(120)
class PageAssetsIT extends DashboardOverHttp {

    private static final String YEAR = "max-age=31536000";
    private static final Pattern ECHARTS_VERSIONED =
            Pattern.compile("/webjars/echarts/5\\.3\\.1/dist/echarts\\.min-[0-9a-f]{32}\\.js");

    @Autowired
    private ResourceUrlProvider resourceUrls;

    @Test
    void replacesEveryPlaceholderWithTheUrlVersionedByTheAssetsContent() throws IOException {
        String page = placeholdersPage();

        assertThat(page).contains("href=\"/fixture/versioned-" + md5("static/fixture/versioned.css") + ".css\"",
                "src=\"/fixture/versioned-" + md5("static/fixture/versioned.js") + ".js\" type=\"module\"",
                "<p>{not a placeholder} and {{ also not: spaces inside }}</p>");
        assertThat(ECHARTS_VERSIONED.matcher(page).find()).as(page).isTrue();
        assertThat(page).doesNotContain("{{/", "{{ fixture");
    }

    @Test
    void servesAVersionedUrlForAYearAndTheUnversionedOneWithNoCache() throws IOException {
        String versioned = "/fixture/versioned-" + md5("static/fixture/versioned.css") + ".css";

        HttpResponse<String> forAYear = http.get(versioned);
        HttpResponse<String> revalidated = http.get("/fixture/versioned.css");

        assertThat(forAYear.statusCode()).isEqualTo(200);
        assertThat(forAYear.body()).isEqualTo("body { color: #123456; }\n");
        assertThat(forAYear.headers().firstValue("Cache-Control")).hasValueSatisfying(
                value -> assertThat(value).contains(YEAR, "public", "immutable"));
        assertThat(revalidated.statusCode()).isEqualTo(200);
        assertThat(revalidated.headers().firstValue("Cache-Control")).hasValue("no-cache");
    }

    @Test
    void keepsNoUrlForAYearWhoseVersionIsNotTheContents() {
        HttpResponse<String> stale = http.get("/fixture/versioned-0123456789abcdef0123456789abcdef.css");

        assertThat(stale.statusCode()).isEqualTo(404);
        assertThat(stale.headers().allValues("Cache-Control")).noneMatch(value -> value.contains("max-age"));
    }

    @Test
    void servesEchartsFromItsWebJarWithoutAndWithVersions() {
        HttpResponse<String> plain = http.get("/webjars/echarts/dist/echarts.min.js");
        Matcher versioned = ECHARTS_VERSIONED.matcher(placeholdersPage());
        assertThat(versioned.find()).isTrue();
        HttpResponse<String> forAYear = http.get(versioned.group());

        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).contains("javascript"));
        assertThat(plain.body()).hasSizeGreaterThan(100_000).contains("5.3.1");
        assertThat(forAYear.statusCode()).isEqualTo(200);
        assertThat(forAYear.body()).isEqualTo(plain.body());
        assertThat(forAYear.headers().firstValue("Cache-Control")).hasValueSatisfying(
                value -> assertThat(value).contains(YEAR));
    }

    @Test
    void failsNamingAPlaceholderWhoseAssetIsNotServed() {
        VersionedPage page = new VersionedPage(new ByteArrayResource(
                "<script src=\"{{/js/missing.js}}\"></script>".getBytes(StandardCharsets.UTF_8), "a test page"),
                resourceUrls);

        assertThatThrownBy(() -> page.render("")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("{{/js/missing.js}}").hasMessageContaining("src/main/resources/static");
    }

    private String placeholdersPage() {
        return new VersionedPage(new ClassPathResource("pages/placeholders.html"), resourceUrls).render("");
    }

    private static String md5(String classpathResource) throws IOException {
        try (InputStream in = new ClassPathResource(classpathResource).getInputStream()) {
            return DigestUtils.md5DigestAsHex(in);
        }
    }
}
