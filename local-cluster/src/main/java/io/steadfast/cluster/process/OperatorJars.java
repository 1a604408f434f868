package io.steadfast.cluster.process;

import io.steadfast.cluster.RepoLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The jars of operator types (each with an {@code OperatorProvider}) that every process which validates or runs
 * operators loads: the router and the hosts. They are passed as {@code -Dloader.path=<jar>,<jar>} to the services'
 * jars, whose launcher (Spring Boot's PropertiesLauncher) adds them to the class path.
 *
 * @param jars absolute paths, in the order given; empty for the built-in operator types only
 */
public record OperatorJars(List<Path> jars) {

    public OperatorJars {
        jars = jars.stream().map(jar -> jar.toAbsolutePath().normalize()).toList();
        for (Path jar : jars) {
            if (jar.toString().contains(",")) {
                throw new IllegalArgumentException("Operator jar " + jar + " has a comma in its path, which separates"
                        + " jars in -Dloader.path; move or rename it");
            }
        }
    }

    /** The built-in operator types only. */
    public static OperatorJars none() {
        return new OperatorJars(List.of());
    }

    /**
     * The jars given, or with none given the examples jar ({@link RepoLayout#examplesJar()}) if it is built, so that
     * the example topologies run without an option.
     */
    public static OperatorJars givenOrDefault(List<Path> given, RepoLayout layout) {
        if (!given.isEmpty()) {
            return new OperatorJars(given);
        }
        Path examples = layout.examplesJar();
        return Files.isRegularFile(examples) ? new OperatorJars(List.of(examples)) : none();
    }

    /** The JVM arguments that load the jars: one {@code -Dloader.path}, or none without jars. */
    public List<String> jvmArgs() {
        if (jars.isEmpty()) {
            return List.of();
        }
        return List.of("-Dloader.path=" + jars.stream().map(Path::toString).collect(Collectors.joining(",")));
    }

    /** The jars for a progress line: their paths, or a word for none. */
    public String describe() {
        return jars.isEmpty() ? "none (built-in operator types only)"
                : jars.stream().map(Path::toString).collect(Collectors.joining(", "));
    }
}
