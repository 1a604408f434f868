package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code steadfast} script in a copy of the checkout whose modules hold one source file and, unless a test
 * removes it, a jar; {@code mvn} and {@code java} on its PATH are fakes that record how they were called.
 */
@DisabledOnOs(OS.WINDOWS)
class SteadfastScriptTest {

    private static final Instant SOURCES_WRITTEN = Instant.now().minus(Duration.ofHours(2));
    private static final Instant JARS_BUILT = Instant.now().minus(Duration.ofHours(1));
    private static final String VERSION = RepoLayout.projectVersion();

    @TempDir
    Path checkout;

    private final List<String> modules = new ArrayList<>();

    @BeforeEach
    void copyTheCheckoutWithJarsNewerThanTheirSources() throws IOException {
        Path root = RepoLayout.fromWorkingDirectory().root();
        Files.copy(root.resolve("steadfast"), checkout.resolve("steadfast"));
        copyDirectory(root.resolve("local-cluster/src/main/help"), checkout.resolve("local-cluster/src/main/help"));
        write(checkout.resolve("pom.xml"), "<project/>", SOURCES_WRITTEN);
        try (Stream<Path> dirs = Files.list(root)) {
            dirs.filter(dir -> Files.isRegularFile(dir.resolve("pom.xml"))).forEach(dir -> modules.add(dir.getFileName().toString()));
        }
        for (String module : modules) {
            write(checkout.resolve(module).resolve("pom.xml"), "<project/>", SOURCES_WRITTEN);
            write(source(module), "class Example {}", SOURCES_WRITTEN);
        }
        setModifiedTimes(checkout, SOURCES_WRITTEN); // directories too: the script counts a changed directory
        for (String module : modules) {
            write(jar(module), "", JARS_BUILT);
        }
        write(launcherJar(), "", JARS_BUILT);
        fake("mvn", "echo '[INFO] Building Steadfast fake module " + VERSION + "   [1/1]'", 0);
        fake("java", "", 0);
    }

    @Test
    void answersHelpWithoutMavenOrJavaWhenNothingIsBuilt() throws Exception {
        for (String module : modules) {
            Files.delete(jar(module));
        }
        Files.delete(launcherJar());
        fake("mvn", "", 1);

        assertThat(run("local", "--help")).isEqualTo(new ScriptRun(0, help("local"), ""));
        assertThat(run("local", "--hosts", "2", "-h").out()).isEqualTo(help("local"));
        assertThat(run("kill-host", "--help")).isEqualTo(new ScriptRun(0, help("kill-host"), ""));
        assertThat(run("help", "kill-host").out()).isEqualTo(help("kill-host"));
        assertThat(run("help")).isEqualTo(new ScriptRun(0, help("steadfast"), ""));
        assertThat(run()).isEqualTo(new ScriptRun(0, help("steadfast"), ""));
        assertThat(calls()).isEmpty();
    }

    @Test
    void startsTheLauncherWithoutBuildingWhenEveryJarIsNewerThanItsSources() throws Exception {
        ScriptRun run = run("local", "--hosts", "2");

        assertThat(run.exitCode()).isZero();
        assertThat(calls()).containsExactly("java -Dsteadfast.repo-root=" + checkout + " -jar "
                + checkout.resolve("local-cluster/target/local-cluster-" + VERSION + "-all.jar")
                + " local --hosts 2");
    }

    @Test
    void buildsWhenASourceIsNewerThanItsJarShowingEachModuleAndOnlyOnce() throws Exception {
        Files.setLastModifiedTime(source("router-service"), FileTime.from(JARS_BUILT.plus(Duration.ofMinutes(30))));

        ScriptRun run = run("local");

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("older than their sources: router-service\n", "  [1/1] Steadfast fake module\n");
        assertThat(calls()).hasSize(2).first(STRING).startsWith("mvn -B -ntp -DskipTests -pl local-cluster -am package");
        assertThat(calls().get(1)).startsWith("java ").endsWith(" local");

        assertThat(run("local").err()).as("the source is older than the build that took it in").isEmpty();
        assertThat(calls()).hasSize(3).last(STRING).startsWith("java ");
    }

    @Test
    void buildsWhenAJarIsMissing() throws Exception {
        Files.delete(launcherJar());

        ScriptRun run = run("local");

        assertThat(run.err()).contains("older than their sources: local-cluster\n");
        assertThat(calls()).first(STRING).startsWith("mvn ");
    }

    @Test
    void rebuildBuildsEvenWhenNothingIsOutOfDate() throws Exception {
        run("local", "--rebuild");

        assertThat(calls()).hasSize(2).first(STRING).startsWith("mvn ");
        assertThat(calls().get(1)).endsWith(" local --rebuild");
    }

    @Test
    void failedBuildStopsBeforeTheLauncherAndNamesTheLog() throws Exception {
        fake("mvn", "echo '[ERROR] COMPILATION ERROR :'", 1);

        ScriptRun run = run("local", "--rebuild");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("[ERROR] COMPILATION ERROR :", ".steadfast/build.log");
        assertThat(calls()).singleElement(STRING).startsWith("mvn ");
    }

    @Test
    void unknownCommandIsAUsageError() throws Exception {
        ScriptRun run = run("start");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Unknown command 'start'.").contains(help("steadfast"));
        assertThat(calls()).isEmpty();
    }

    private record ScriptRun(int exitCode, String out, String err) {
    }

    private ScriptRun run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", checkout.resolve("steadfast").toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(checkout, "out", ".txt");
        Path err = Files.createTempFile(checkout, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(checkout.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PATH", checkout.resolve("bin") + ":/usr/bin:/bin");
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("./steadfast " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new ScriptRun(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** Replaces {@code bin/<name>} by a script that records its arguments, runs {@code body} and exits. */
    private void fake(String name, String body, int exitCode) throws IOException {
        Path script = checkout.resolve("bin").resolve(name);
        Files.createDirectories(script.getParent());
        Files.writeString(script, "#!/bin/sh\necho \"" + name + " $*\" >> '" + checkout.resolve("calls.log") + "'\n"
                + body + "\nexit " + exitCode + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private List<String> calls() throws IOException {
        Path log = checkout.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private String help(String command) throws IOException {
        return Files.readString(checkout.resolve("local-cluster/src/main/help").resolve(command + ".txt"));
    }

    private Path source(String module) {
        return checkout.resolve(module).resolve("src/main/java/Example.java");
    }

    /** A module's jar as the script names it: {@code <module>-<version>.jar}, but the examples' artifact id differs. */
    private Path jar(String module) {
        String artifact = module.equals("examples") ? RepoLayout.EXAMPLES_ARTIFACT : module;
        return checkout.resolve(module).resolve("target").resolve(artifact + "-" + VERSION + ".jar");
    }

    private Path launcherJar() {
        return checkout.resolve("local-cluster/target/local-cluster-" + VERSION + "-all.jar");
    }

    private static void write(Path file, String content, Instant modified) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(modified));
    }

    private static void setModifiedTimes(Path tree, Instant modified) throws IOException {
        try (Stream<Path> paths = Files.walk(tree)) {
            for (Path path : paths.toList()) {
                Files.setLastModifiedTime(path, FileTime.from(modified));
            }
        }
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
