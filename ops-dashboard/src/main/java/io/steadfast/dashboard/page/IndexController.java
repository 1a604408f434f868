package io.steadfast.dashboard.page;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.DigestUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The page, {@code static/index.html}, at {@code /} and {@code /index.html}, its asset placeholders replaced with
 * versioned URLs ({@link VersionedPage}). {@code Cache-Control: no-cache} and an ETag: the browser asks again on each
 * load and gets a 304 while the page is unchanged; after an upgrade it gets the new page and, through its new URLs,
 * the new assets.
 */
@RestController
class IndexController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    private final VersionedPage page;

    IndexController(VersionedPage page) {
        this.page = page;
    }

    @GetMapping({"/", "/index.html"})
    ResponseEntity<String> index(HttpServletRequest request) {
        String html = page.render(request.getContextPath());
        String etag = "\"" + DigestUtils.md5DigestAsHex(html.getBytes(StandardCharsets.UTF_8)) + "\"";
        return ResponseEntity.ok().contentType(HTML).cacheControl(CacheControl.noCache()).eTag(etag).body(html);
    }
}
