package io.steadfast.router.web;

import io.steadfast.router.leadership.Leadership;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Puts this router's leadership epoch on every answer ({@value Leadership#EPOCH_HEADER}): a host takes an answer
 * (a heartbeat's lease renewal above all) only from a router of the highest epoch it has seen, so a deposed leader
 * that still answers renews nothing.
 */
@Component
class RouterEpochHeaderFilter extends OncePerRequestFilter {

    private final Leadership leadership;

    RouterEpochHeaderFilter(Leadership leadership) {
        this.leadership = leadership;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader(Leadership.EPOCH_HEADER, Long.toString(leadership.epoch()));
        chain.doFilter(request, response);
    }
}
