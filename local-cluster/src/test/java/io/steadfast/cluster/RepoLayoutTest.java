package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepoLayoutTest {

    @TempDir
    Path temp;

    @Test
    void findsRootHoldingPomAndExamplesFromNestedDirectory() throws IOException {
        Path root = repo(temp.resolve("checkout"));
        Path nested = Files.createDirectories(root.resolve("local-cluster/src/main"));
        Files.writeString(root.resolve("local-cluster/pom.xml"), "<project/>"); // a module pom is not the root

        assertThat(RepoLayout.find(nested).root()).isEqualTo(root.toAbsolutePath().normalize());
    }

    @Test
    void findsRootFromRootItself() throws IOException {
        Path root = repo(temp.resolve("checkout"));

        assertThat(RepoLayout.find(root).root()).isEqualTo(root);
    }

    @Test
    void findsTheRealCheckoutFromTheWorkingDirectory() {
        RepoLayout layout = RepoLayout.fromWorkingDirectory();

        assertThat(layout.root().resolve("examples/word-count.json")).exists();
        assertThat(layout.root().resolve("local-cluster")).isDirectory();
    }

    @Test
    void failsNamingTheStartDirectoryWhenNoRootAbove() {
        Path lonely = temp.resolve("nowhere");

        assertThatThrownBy(() -> RepoLayout.find(lonely))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(lonely.toString())
                .hasMessageContaining("pom.xml and examples/");
    }

    @Test
    void locatesJarsByModuleAndVersion() throws IOException {
        RepoLayout layout = RepoLayout.find(repo(temp.resolve("checkout")));

        assertThat(layout.jar(Service.ROUTER).toString())
                .endsWith("router-service/target/router-service-" + RepoLayout.projectVersion() + ".jar");
        assertThat(layout.jar(Service.VOTER).toString()).as("the voter-service's Boot jar, not its host's classes")
                .endsWith("voter-service/target/voter-service-" + RepoLayout.projectVersion() + ".jar");
    }

    @Test
    void locatesTheExamplesJarByItsArtifactId() throws IOException {
        Path root = repo(temp.resolve("checkout"));

        assertThat(RepoLayout.find(root).examplesJar())
                .isEqualTo(root.resolve("examples/target/steadfast-examples-" + RepoLayout.projectVersion() + ".jar"));
    }

    @Test
    void reportsEveryMissingJarWithTheBuildCommand() throws IOException {
        Path root = repo(temp.resolve("checkout"));
        RepoLayout layout = RepoLayout.find(root);
        Files.createDirectories(layout.jar(Service.ROUTER).getParent());
        Files.writeString(layout.jar(Service.ROUTER), "jar");

        assertThatThrownBy(() -> layout.requireJars(List.of(Service.ROUTER, Service.HOST, Service.DASHBOARD)))
                .isInstanceOfSatisfying(MissingJarException.class, e -> assertThat(e.missing())
                        .containsExactly(layout.jar(Service.HOST), layout.jar(Service.DASHBOARD)))
                .hasMessageContaining("pe-host-service")
                .hasMessageContaining("ops-dashboard")
                .hasMessageContaining("mvn -B -q -DskipTests package");
    }

    @Test
    void keepsEndToEndRunsUnderTheLocalClusterTargetNamedByTestAndTime() throws IOException {
        Path root = repo(temp.resolve("checkout"));

        Path runDir = RepoLayout.find(root).e2eRunDir("gray");

        assertThat(runDir.getParent()).isEqualTo(root.resolve("local-cluster/target/e2e-run"));
        assertThat(runDir.getFileName().toString()).matches("gray-\\d{8}-\\d{6}");
        assertThat(runDir).doesNotExist();
    }

    private static Path repo(Path root) throws IOException {
        Files.createDirectories(root.resolve("examples"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        return root.toAbsolutePath().normalize();
    }
}
