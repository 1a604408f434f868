package io.steadfast.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

/**
 * The services' Dockerfiles, read as text (no Docker engine here): each extracts the layers of the jar its module
 * builds, runs as a non-root user with a heap that follows the container's memory, exposes the service's port, and,
 * for the services that load operator types, carries the examples' jar and the launcher that loads it.
 */
class DockerfilesTest {

    private static final Pattern ARTIFACT_ID = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>");

    @ParameterizedTest(name = "{0}")
    @CsvSource({"router-service, true", "pe-host-service, true", "voter-service, true", "checkpoint-service, false",
            "ops-dashboard, false"})
    void buildsNonRootLayeredImageOfModuleJar(String module, boolean loadsOperators) throws IOException {
        Path moduleDir = Repository.root().resolve(module);
        Path dockerfile = moduleDir.resolve("src/main/docker/Dockerfile");
        assertThat(dockerfile).as("the Dockerfile of " + module).isRegularFile();
        String text = Files.readString(dockerfile);
        String pom = Files.readString(moduleDir.resolve("pom.xml"));
        String artifactId = artifactId(pom);

        assertThat(fromLines(text)).as("base images").hasSize(2)
                .allSatisfy(from -> assertThat(from).startsWith("FROM eclipse-temurin:17-jre"));
        assertThat(text).contains("COPY ${JAR_FILE} app.jar").contains("ARG JAR_FILE=" + artifactId + "-*.jar")
                .contains("java -Djarmode=tools -jar app.jar extract --layers --launcher");
        assertThat(lastUser(text)).as("the user the image runs as").matches("[1-9][0-9]*(:[1-9][0-9]*)?");
        assertThat(text).contains("-XX:MaxRAMPercentage=");
        assertThat(exposedPorts(text)).as("EXPOSE").contains(serverPort(moduleDir));
        boolean zipLayout = pom.contains("<layout>ZIP</layout>");
        assertThat(text).contains("org.springframework.boot.loader.launch."
                + (zipLayout ? "PropertiesLauncher" : "JarLauncher"));
        assertThat(text.contains("COPY operators/ /opt/steadfast/operators/")).as("carries the examples' jar")
                .isEqualTo(loadsOperators);
        assertThat(text.contains("ENV LOADER_PATH=/opt/steadfast/operators")).isEqualTo(loadsOperators);
        assertThat(zipLayout || !loadsOperators).as("loads operators only through PropertiesLauncher (ZIP layout)")
                .isTrue();
        assertThat(pom).as("the images profile's properties in " + module + "/pom.xml")
                .contains("<image.name>" + artifactId + "</image.name>", "<image.skip>false</image.skip>");
        assertThat(pom.contains("<image.operators.skip>false</image.operators.skip>")).isEqualTo(loadsOperators);
    }

    private static String artifactId(String pom) {
        Matcher matcher = ARTIFACT_ID.matcher(pom);
        assertThat(matcher.find()).as("the module's artifactId").isTrue();
        return matcher.group(1);
    }

    private static List<String> fromLines(String dockerfile) {
        return dockerfile.lines().filter(line -> line.startsWith("FROM ")).toList();
    }

    private static String lastUser(String dockerfile) {
        return dockerfile.lines().filter(line -> line.startsWith("USER ")).reduce((first, second) -> second)
                .map(line -> line.substring("USER ".length()).strip()).orElse("root (no USER)");
    }

    private static List<String> exposedPorts(String dockerfile) {
        return dockerfile.lines().filter(line -> line.startsWith("EXPOSE "))
                .flatMap(line -> List.of(line.substring("EXPOSE ".length()).strip().split("\\s+")).stream()).toList();
    }

    /** server.port of the module's application.yml. */
    private static String serverPort(Path moduleDir) throws IOException {
        Map<String, Object> yaml = new Yaml().load(Files.readString(moduleDir.resolve("src/main/resources/application.yml")));
        Object server = yaml.get("server");
        assertThat(server).as("server: in the application.yml of " + moduleDir.getFileName()).isInstanceOf(Map.class);
        return String.valueOf(((Map<?, ?>) server).get("port"));
    }
}
