package io.steadfast.dashboard.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

/** The examples the build packaged, compared with the repository's examples/*.json (the module's ../examples). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.router-url=http://127.0.0.1:9")
@Timeout(120)
class ExamplesApiIT extends DashboardOverHttp {

    private static final Path REPOSITORY_EXAMPLES = Path.of("..", "examples");

    @Test
    void servesEveryExampleOfTheRepositorySortedByNameWithItsSpec() throws IOException {
        List<Path> files = repositoryExamples();
        assertThat(files).as("examples/*.json in the repository").isNotEmpty();

        HttpResponse<String> response = http.get("/api/v1/examples");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode served = DashboardHttp.json(response.body());
        List<String> names = new ArrayList<>();
        served.forEach(example -> names.add(example.get("name").asString()));
        assertThat(names).isSorted().containsExactlyElementsOf(files.stream()
                .map(file -> file.getFileName().toString().replaceFirst("\\.json$", "")).sorted().toList());
        for (int i = 0; i < files.size(); i++) {
            Path file = REPOSITORY_EXAMPLES.resolve(names.get(i) + ".json");
            assertThat(served.get(i).get("spec")).as(file.toString())
                    .isEqualTo(DashboardHttp.json(Files.readString(file)));
            assertThat(served.get(i).get("spec").get("id").asString()).as(file.toString()).isNotBlank();
        }
    }

    /** The top-level *.json files: examples/src is the examples module's code. */
    private static List<Path> repositoryExamples() throws IOException {
        try (Stream<Path> files = Files.list(REPOSITORY_EXAMPLES)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".json")).toList();
        }
    }
}
