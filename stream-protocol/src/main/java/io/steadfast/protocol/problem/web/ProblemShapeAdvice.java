package io.steadfast.protocol.problem.web;

import io.steadfast.protocol.problem.ProblemType;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Gives every problem detail a service answers the shape all services share ({@link ProblemType}): a {@code reason}
 * (the HTTP status's name where the handler gave none) and the {@code type} derived from it. Each service declares a
 * {@code @RestControllerAdvice} subclass in its web package, so that its component scan and its web test slices find
 * it. Spring MVC is an optional dependency of this module: only services, which have it, use this package.
 */
public abstract class ProblemShapeAdvice implements ResponseBodyAdvice<Object> {

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
                                  Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
                                  ServerHttpResponse response) {
        if (body instanceof ProblemDetail problem) {
            HttpStatus status = HttpStatus.resolve(problem.getStatus());
            String reason = ProblemType.reasonOf(problem.getProperties(), status == null ? "HTTP_" + problem.getStatus()
                    : status.name());
            problem.setProperty(ProblemType.REASON, reason);
            if (ProblemType.isReason(reason)) {
                problem.setType(ProblemType.of(reason));
            }
        }
        return body;
    }
}
