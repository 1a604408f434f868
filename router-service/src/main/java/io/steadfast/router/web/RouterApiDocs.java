package io.steadfast.router.web;

import io.steadfast.protocol.problem.web.ProblemApiDocs;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the router's OpenAPI spec ({@code /v3/api-docs}, Swagger UI at {@code /swagger-ui.html}) says about the API as a
 * whole. The spec is checked in as {@code docs/openapi/router.json} and compared by {@code RouterOpenApiSpecTest}, so
 * that a change of the API shows as a diff. Neither path is under {@code /api/**}: a standby router answers both with
 * its 503 naming the leader, like everything but its health probes and {@code /api/v1/leader}.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(
        info = @Info(title = "Steadfast router API", version = "v1", description = """
                The control plane of Steadfast: submit and cancel topologies, read their plans, results and votes; \
                hosts register, send heartbeats and report suspicions; hosts acknowledge checkpoints; recoveries \
                and the leading router can be read. Only the leading router serves this API: a standby answers 503 \
                with a Steadfast-Router-Leader header and a `leader` property naming the leader. Every error is an \
                RFC 9457 problem detail (application/problem+json) with a `reason` (UPPER_SNAKE, e.g. \
                INVALID_TOPOLOGY), a `type` derived from it, and for invalid input an `errors` array of \
                {field, operator, message}."""),
        tags = {
                @Tag(name = RouterApiDocs.TOPOLOGIES, description = "Submit, list, inspect and cancel topologies"),
                @Tag(name = RouterApiDocs.HOSTS, description = "Host registration, heartbeats and suspicions"),
                @Tag(name = RouterApiDocs.RECOVERIES, description = "Recoveries of failed tasks, newest first"),
                @Tag(name = RouterApiDocs.CHECKPOINTS, description = "Checkpoints of a topology and hosts' acks"),
                @Tag(name = RouterApiDocs.LEADER, description = "Which router leads")})
class RouterApiDocs {

    static final String TOPOLOGIES = "topologies";
    static final String HOSTS = "hosts";
    static final String RECOVERIES = "recoveries";
    static final String CHECKPOINTS = "checkpoints";
    static final String LEADER = "leader";

    /** Every operation's 4XX and 5XX answers are problem details of the shape all services share. */
    @Bean
    OpenApiCustomizer problemDetailAnswers() {
        return ProblemApiDocs.problemAnswers(
                "The router or a service it calls failed, or this router is a standby (503 naming the leader)");
    }
}
