package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.cluster.RepoLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorJarsTest {

    @TempDir
    Path checkout;

    @Test
    void passesEveryJarInOneLoaderPathAsAbsolutePaths() {
        OperatorJars jars = new OperatorJars(List.of(Path.of("/opt/a.jar"), Path.of("lib/../b.jar")));

        assertThat(jars.jvmArgs()).containsExactly("-Dloader.path=/opt/a.jar," + Path.of("b.jar").toAbsolutePath());
    }

    @Test
    void passesNothingWithoutJars() {
        assertThat(OperatorJars.none().jvmArgs()).isEmpty();
        assertThat(OperatorJars.none().describe()).contains("built-in operator types only");
    }

    @Test
    void rejectsAPathWithACommaWhichTheLoaderPathWouldSplit() {
        assertThatThrownBy(() -> new OperatorJars(List.of(Path.of("/opt/a,b.jar"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/opt/a,b.jar has a comma");
    }

    @Test
    void defaultsToTheExamplesJarWhenItIsBuilt() throws IOException {
        RepoLayout layout = layout();
        assertThat(OperatorJars.givenOrDefault(List.of(), layout)).isEqualTo(OperatorJars.none());

        Files.createDirectories(layout.examplesJar().getParent());
        Files.writeString(layout.examplesJar(), "jar");

        assertThat(OperatorJars.givenOrDefault(List.of(), layout).jars()).containsExactly(layout.examplesJar());
    }

    @Test
    void jarsGivenReplaceTheDefault() throws IOException {
        RepoLayout layout = layout();
        Files.createDirectories(layout.examplesJar().getParent());
        Files.writeString(layout.examplesJar(), "jar");
        Path mine = checkout.resolve("mine.jar");

        assertThat(OperatorJars.givenOrDefault(List.of(mine), layout).jars()).containsExactly(mine);
    }

    private RepoLayout layout() throws IOException {
        Files.createDirectories(checkout.resolve("examples"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>");
        return RepoLayout.find(checkout);
    }
}
