package io.steadfast.protocol.problem.web;

import io.steadfast.protocol.problem.ProblemType;
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

/**
 * Documents, in a service's OpenAPI spec, the problem detail every error answer carries
 * ({@code application/problem+json}, shaped by {@link ProblemShapeAdvice}) as the {@value #PROBLEM} schema, and gives
 * each operation a 4XX and a 5XX answer of that shape. springdoc is an optional dependency of this module: only the
 * services with a spec use this class.
 */
public final class ProblemApiDocs {

    public static final String PROBLEM = "Problem";
    private static final String PROBLEM_REF = "#/components/schemas/" + PROBLEM;

    private ProblemApiDocs() {
    }

    /** @param serverErrors what a 5XX answer of this service means */
    public static OpenApiCustomizer problemAnswers(String serverErrors) {
        return api -> {
            if (api.getComponents() == null) {
                api.setComponents(new Components());
            }
            api.getComponents().addSchemas(PROBLEM, problemSchema());
            if (api.getPaths() == null) {
                return;
            }
            api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                operation.getResponses().addApiResponse("4XX", problemAnswer("The request was refused"));
                operation.getResponses().addApiResponse("5XX", problemAnswer(serverErrors));
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
                .addProperty("leader", new StringSchema().description("The leading router, on a standby router's 503"));
    }
}
