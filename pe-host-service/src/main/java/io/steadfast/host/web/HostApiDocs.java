package io.steadfast.host.web;

import io.steadfast.protocol.problem.web.ProblemApiDocs;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What a host's OpenAPI spec ({@code /v3/api-docs}, Swagger UI at {@code /swagger-ui.html}) says about its API as a
 * whole: the API the router and the other hosts call (a pe-host-service and a voter-service serve the same one). The
 * spec is checked in as {@code docs/openapi/host.json} and compared by {@code HostOpenApiSpecTest}, so that a change
 * of the API shows as a diff.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(
        info = @Info(title = "Steadfast host API (pe-host-service, voter-service)", version = "v1", description = """
                What the router and the other hosts ask of a host: deploy and cancel a topology's tasks, trigger \
                checkpoints, recover lost tasks here, hand over logged decisions, read task state. Callers are \
                services, not people; the router's API is the one for operators. Every error is an RFC 9457 problem \
                detail (application/problem+json) with a `reason` (UPPER_SNAKE) and a `type` derived from it."""),
        tags = {
                @Tag(name = HostApiDocs.DEPLOYMENTS, description = "A topology's tasks on this host, and checkpoints"),
                @Tag(name = HostApiDocs.RECOVERY, description = "Local recovery: restoring lost tasks here, and the"
                        + " decisions, redirects and catch-up targets it needs"),
                @Tag(name = HostApiDocs.TASKS, description = "The tasks this host runs and their keyed state")})
class HostApiDocs {

    static final String DEPLOYMENTS = "deployments";
    static final String RECOVERY = "recovery";
    static final String TASKS = "tasks";

    /** Every operation's 4XX and 5XX answers are problem details of the shape all services share. */
    @Bean
    OpenApiCustomizer problemDetailAnswers() {
        return ProblemApiDocs.problemAnswers("The host failed");
    }
}
