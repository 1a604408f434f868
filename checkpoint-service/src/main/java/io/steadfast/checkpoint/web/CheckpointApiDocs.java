package io.steadfast.checkpoint.web;

import io.steadfast.protocol.problem.web.ProblemApiDocs;
import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the checkpoint-service's OpenAPI spec ({@code /v3/api-docs}, Swagger UI at {@code /swagger-ui.html}) says about
 * the API as a whole. The spec is checked in as {@code docs/openapi/checkpoint-service.json} and compared by
 * {@code CheckpointServiceOpenApiSpecTest}, so that a change of the API shows as a diff.
 */
@Configuration(proxyBeanMethods = false)
@OpenAPIDefinition(
        info = @Info(title = "Steadfast checkpoint-service API", version = "v1", description = """
                Stores checkpoint records, task snapshots and replay-log segments for the router and the hosts. \
                Every error is an RFC 9457 problem detail (application/problem+json) with a `reason` (UPPER_SNAKE) \
                and a `type` derived from it."""),
        tags = {
                @Tag(name = CheckpointApiDocs.CHECKPOINTS, description = "Checkpoint records: create, ack, complete,"
                        + " fail, read, delete"),
                @Tag(name = CheckpointApiDocs.SNAPSHOTS, description = "Task snapshots, one by one or in batches"),
                @Tag(name = CheckpointApiDocs.REPLAY_LOGS, description = "Replay-log segments of a topology's channels")})
class CheckpointApiDocs {

    static final String CHECKPOINTS = "checkpoints";
    static final String SNAPSHOTS = "snapshots";
    static final String REPLAY_LOGS = "replay-logs";

    /** Every operation's 4XX and 5XX answers are problem details of the shape all services share. */
    @Bean
    OpenApiCustomizer problemDetailAnswers() {
        return ProblemApiDocs.problemAnswers("The service or its store failed");
    }
}
