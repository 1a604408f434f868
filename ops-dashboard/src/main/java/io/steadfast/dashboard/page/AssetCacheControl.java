package io.steadfast.dashboard.page;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceUrlProvider;
import org.springframework.web.util.UrlPathHelper;

/**
 * {@code Cache-Control} of the static assets and WebJars: a year, immutable, for a content-versioned URL (the one
 * {@link ResourceUrlProvider} hands out, {@code /app-<md5>.css}), which a new build changes; {@code no-cache} for any
 * other, so that an unversioned URL (a module that a versioned script imports, say) is revalidated (a 304 while
 * unchanged) and never stale after an upgrade. One year for every asset would keep such a module stale.
 *
 * <p>Set before the resource handler writes, which leaves the header alone while no cache period is configured for
 * it (spring.web.resources.cache.*, which must stay unset).
 */
public class AssetCacheControl implements HandlerInterceptor {

    /** What a versioned URL answers with. */
    public static final CacheControl VERSIONED = CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable();

    /** The content strategy's version: the MD5 of the content in hex, before the file's extension. */
    private static final Pattern CONTENT_VERSION = Pattern.compile("-[0-9a-f]{32}(\\.[^./]*)$");

    private final Supplier<ResourceUrlProvider> urls;

    /** @param urls Spring MVC's; a supplier, since it is built after the interceptors are registered */
    public AssetCacheControl(Supplier<ResourceUrlProvider> urls) {
        this.urls = urls;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof ResourceHttpRequestHandler) {
            String path = UrlPathHelper.defaultInstance.getLookupPathForRequest(request);
            CacheControl cacheControl = isVersioned(path) ? VERSIONED : CacheControl.noCache();
            response.setHeader(HttpHeaders.CACHE_CONTROL, cacheControl.getHeaderValue());
        }
        return true;
    }

    /**
     * Whether {@code path} is the versioned URL of an asset: it carries a version that matches the asset's content
     * now. One that merely looks versioned, or names an older content, is not: it must not be kept for a year.
     */
    private boolean isVersioned(String path) {
        Matcher version = CONTENT_VERSION.matcher(path);
        return version.find() && path.equals(urls.get().getForLookupPath(version.replaceFirst("$1")));
    }
}
