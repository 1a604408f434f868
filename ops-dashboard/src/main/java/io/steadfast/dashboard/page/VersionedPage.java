package io.steadfast.dashboard.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * An HTML page whose asset URLs are written as placeholders, {@code {{/app.css}}} or {@code {{app.css}}}, each
 * replaced by the asset's content-versioned URL ({@code /app-3f2a….css}) from Spring's resource chain. The browser may
 * then keep a versioned asset for a year: a new build changes its URL. A page without placeholders is served as it
 * is. Thread-safe; the template is read on each {@link #render}, which is cheap next to a page load, so that the
 * page is never older than its assets.
 */
public class VersionedPage {

    /** {@code {{path}}}, blanks around the path allowed. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}\\s]+)\\s*}}");

    private final Resource template;
    private final ResourceUrlProvider urls;

    public VersionedPage(Resource template, ResourceUrlProvider urls) {
        this.template = template;
        this.urls = urls;
    }

    /**
     * The page with every placeholder replaced.
     *
     * @param contextPath the servlet context path the URLs are prefixed with ("" at the root)
     * @throws IllegalStateException if a placeholder names an asset that is not served, naming both
     */
    public String render(String contextPath) {
        String html = read();
        Matcher placeholder = PLACEHOLDER.matcher(html);
        StringBuilder page = new StringBuilder(html.length());
        while (placeholder.find()) {
            String path = placeholder.group(1).startsWith("/") ? placeholder.group(1) : "/" + placeholder.group(1);
            String versioned = urls.getForLookupPath(path);
            if (versioned == null) {
                throw new IllegalStateException(template.getDescription() + " names the asset " + placeholder.group()
                        + ", but no static resource or WebJar answers " + path + "; fix the path in the page, or"
                        + " add the file under src/main/resources/static");
            }
            placeholder.appendReplacement(page, Matcher.quoteReplacement(contextPath + versioned));
        }
        placeholder.appendTail(page);
        return page.toString();
    }

    private String read() {
        try {
            return template.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the page " + template.getDescription(), e);
        }
    }
}
