package io.steadfast.checkpoint.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The checkpoint-service's OpenAPI spec is checked in as {@code docs/openapi/checkpoint-service.json}, so that a
 * change of the API is a visible diff. After changing the API on purpose, rewrite the file with {@value #REWRITE}.
 */
@SpringBootTest
@AutoConfigureMockMvc
class CheckpointServiceOpenApiSpecTest {

    static final String REWRITE = "mvn -B -pl checkpoint-service test -Dtest=CheckpointServiceOpenApiSpecTest"
            + " -Dsteadfast.openapi.write=true";

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

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
        Path path = repoRoot().resolve("docs/openapi/checkpoint-service.json");
        String served = normalised(mvc.perform(get("/v3/api-docs")).andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString());
        if (Boolean.getBoolean("steadfast.openapi.write")) {
            Files.createDirectories(path.getParent());
            Files.writeString(path, served);
        }

        assertThat(path).as("%s is missing; write it with %s", path, REWRITE).exists();
        assertThat(Files.readString(path)).as("%s is out of date; rewrite it with %s", path, REWRITE)
                .isEqualTo(served);
    }

    /** Sorted keys at every level, no {@code servers} (the URL and port of the request), a final newline. */
    private static String normalised(String spec) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = JSON.readValue(spec, Map.class);
        tree.remove("servers");
        return JSON.writeValueAsString(tree) + "\n";
    }

    private static Path repoRoot() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.isDirectory(dir.resolve("checkpoint-service"))) {
                return dir;
            }
        }
        throw new IOException("No repository root (with docs/ and checkpoint-service/) above "
                + Path.of("").toAbsolutePath());
    }
}
