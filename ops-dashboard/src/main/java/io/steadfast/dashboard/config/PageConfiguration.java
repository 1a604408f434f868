package io.steadfast.dashboard.config;

import io.steadfast.dashboard.page.AssetCacheControl;
import io.steadfast.dashboard.page.VersionedPage;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * The page and its assets: index.html with versioned asset URLs, and the assets' caching. The resource chain itself
 * (the content version strategy for {@code /**}, WebJars without versions) is set in application.yml.
 */
@Configuration(proxyBeanMethods = false)
class PageConfiguration implements WebMvcConfigurer {

    private final ObjectProvider<ResourceUrlProvider> resourceUrls;

    PageConfiguration(ObjectProvider<ResourceUrlProvider> resourceUrls) {
        this.resourceUrls = resourceUrls;
    }

    /** Static: Spring MVC builds the URL provider from the configurers, this one included. */
    @Bean
    static VersionedPage indexPage(ResourceUrlProvider mvcResourceUrlProvider) {
        return new VersionedPage(new ClassPathResource("static/index.html"), mvcResourceUrlProvider);
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new AssetCacheControl(resourceUrls::getObject));
    }
}
