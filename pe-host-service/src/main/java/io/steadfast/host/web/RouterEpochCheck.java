package io.steadfast.host.web;

import io.steadfast.host.registration.RouterEpoch;
import io.steadfast.protocol.router.RouterHeaders;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Refuses every call that names a router leadership epoch ({@value RouterHeaders#EPOCH}) below the highest this host
 * has seen ({@link StaleRouterCallException}); a higher one becomes the highest. Calls without the header (peer
 * hosts, operators) pass.
 */
@Component
class RouterEpochCheck implements WebMvcConfigurer, HandlerInterceptor {

    private final RouterEpoch epoch;

    RouterEpochCheck(RouterEpoch epoch) {
        this.epoch = epoch;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String header = request.getHeader(RouterHeaders.EPOCH);
        if (header == null) {
            return true;
        }
        long named;
        try {
            named = Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(RouterHeaders.EPOCH + ": '" + header + "' is not a number; a router"
                    + " sends its leadership epoch there");
        }
        if (!epoch.admit(named)) {
            throw new StaleRouterCallException(named, epoch.highest());
        }
        return true;
    }
}
