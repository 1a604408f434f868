package io.steadfast.router.web;

import io.steadfast.protocol.problem.ProblemType;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
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

    private static final String PROBLEM = "Problem";
    private static final String PROBLEM_REF = "#/components/schemas/" + PROBLEM;

    /**
     * Documents the problem detail every error answer carries ({@code application/problem+json}) as the
     * {@value #PROBLEM} schema, and gives each operation a 4XX and a 5XX answer of that shape.
     */
    @Bean
    OpenApiCustomizer problemDetailAnswers() {
        return api -> {
            if (api.getComponents() == null) {
                api.setComponents(new Components());
            }
            api.getComponents().addSchemas(PROBLEM, problemSchema());
            api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                operation.getResponses().addApiResponse("4XX", problemAnswer("The request was refused"));
                operation.getResponses().addApiResponse("5XX", problemAnswer(
                        "The router or a service it calls failed, or this router is a standby (503 naming the leader)"));
            }));
        };
    }

    private static ApiResponse problemAnswer(String description) {
        return new ApiResponse().description(description).content(new Content().addMediaType(
                "application/problem+json", new MediaType().schema(new Schema<>().$ref(PROBLEM_REF))));
    }

    private static Schema<?> problemSchema() {
        Schema<?> fieldError = new ObjectSchema()
                .addProperty("field", new StringSchema().description("JSON path of the field at fault"))
                .addProperty("operator", new StringSchema().description("The operator at fault, if any"))
                .addProperty("message", new StringSchema().description("What is wrong and what to do"));
        return new ObjectSchema()
                .description("An RFC 9457 problem detail in the shape every Steadfast service shares")
                .addProperty("type", new StringSchema().description("A URI derived from the reason"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema().description("What went wrong and what to do"))
                .addProperty("instance", new StringSchema())
                .addProperty(ProblemType.REASON, new StringSchema()
                        .description("Why the request was refused, UPPER_SNAKE, e.g. INVALID_TOPOLOGY"))
                .addProperty(ProblemType.ERRORS, new ArraySchema().items(fieldError)
                        .description("The fields at fault, for invalid input"))
                .addProperty(ProblemType.TOPOLOGY, new StringSchema())
                .addProperty(ProblemType.HOST, new StringSchema())
                .addProperty("leader", new StringSchema().description("The leading router, on a standby's 503"));
    }
}
