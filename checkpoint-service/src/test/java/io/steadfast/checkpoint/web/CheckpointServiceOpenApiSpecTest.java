package io.steadfast.checkpoint.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.testkit.CheckedInApiSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The checkpoint-service's OpenAPI spec is checked in as {@code docs/openapi/checkpoint-service.json}, so that a
 * change of the API is a visible diff. After changing the API on purpose, rewrite the file as the failure says.
 */
@SpringBootTest
@AutoConfigureMockMvc
class CheckpointServiceOpenApiSpecTest {

    private static final CheckedInApiSpec SPEC = new CheckedInApiSpec("checkpoint-service",
            "checkpoint-service.json", "CheckpointServiceOpenApiSpecTest");

    @TempDir
    static Path dataDir;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("steadfast.checkpoint.embedded.data-dir", () -> dataDir.toString());
    }

    @Autowired
    private MockMvc mvc;

    @Test
    void servedSpecIsTheCheckedInOne() throws Exception {
        SPEC.assertServed(mvc.perform(get("/v3/api-docs")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString());
    }
}
