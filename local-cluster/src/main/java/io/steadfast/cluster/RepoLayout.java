package io.steadfast.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.Properties;

/**
 * Where things are in a Steadfast checkout: the repository root (the first directory, walking up from a start
 * directory, that holds both {@code pom.xml} and {@code examples/}) and the service jars under it.
 */
public final class RepoLayout {

    /** How to build every jar the cluster needs, from the repository root. */
    public static final String BUILD_COMMAND = "mvn -B -q -DskipTests package";

    /** The artifact id of the examples module, whose jar the local cluster loads by default. */
    public static final String EXAMPLES_ARTIFACT = "steadfast-examples";

    private final Path root;
    private final String version;

    RepoLayout(Path root, String version) {
        this.root = root.toAbsolutePath().normalize();
        this.version = version;
    }

    /** System property naming the repository root, set by the {@code steadfast} script; else the walk starts here. */
    public static final String ROOT_PROPERTY = "steadfast.repo-root";

    /** Finds the repository root from {@value #ROOT_PROPERTY} if set, otherwise from the working directory. */
    public static RepoLayout fromWorkingDirectory() {
        String root = System.getProperty(ROOT_PROPERTY);
        return find(root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath());
    }

    /**
     * Walks up from {@code start} to the repository root.
     *
     * @throws IllegalStateException naming the start directory if no ancestor looks like the repository root
     */
    public static RepoLayout find(Path start) {
        for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("examples"))) {
                return new RepoLayout(dir, projectVersion());
            }
        }
        throw new IllegalStateException("No Steadfast checkout found at or above " + start.toAbsolutePath().normalize()
                + " (looked for a directory holding pom.xml and examples/). Run the launcher from inside the repository.");
    }

    public Path root() {
        return root;
    }

    /** The jar {@code <module>/target/<module>-<version>.jar} of a service; it may not exist. */
    public Path jar(Service service) {
        return root.resolve(service.module()).resolve("target").resolve(service.module() + "-" + version + ".jar");
    }

    /**
     * The jar of the examples module, {@code examples/target/steadfast-examples-<version>.jar}: the operator types the
     * example topologies use beside the built-in ones. It may not exist.
     */
    public Path examplesJar() {
        return root.resolve("examples").resolve("target").resolve(EXAMPLES_ARTIFACT + "-" + version + ".jar");
    }

    /** The jars of the given services that are not built (yet), in the order given. */
    public List<Path> missingJars(Collection<Service> services) {
        return services.stream().map(this::jar).filter(jar -> !Files.isRegularFile(jar)).toList();
    }

    /**
     * Where an end-to-end test run keeps its processes' logs: {@code local-cluster/target/e2e-run/<name>-<timestamp>}
     * under the root, the timestamp {@code yyyyMMdd-HHmmss} of now. The directory is not created.
     */
    public Path e2eRunDir(String name) {
        return root.resolve("local-cluster/target/e2e-run")
                .resolve(name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /**
     * Checks that the jars of the given services exist.
     *
     * @throws MissingJarException naming every missing jar and the command that builds them
     */
    public void requireJars(Collection<Service> services) {
        List<Path> missing = missingJars(services);
        if (!missing.isEmpty()) {
            throw new MissingJarException(missing, BUILD_COMMAND, root);
        }
    }

    static String projectVersion() {
        try (InputStream in = RepoLayout.class.getResourceAsStream("local-cluster.properties")) {
            if (in == null) {
                throw new IllegalStateException("local-cluster.properties is missing from the classpath; rebuild local-cluster");
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            if (version == null || version.startsWith("@")) {
                throw new IllegalStateException("local-cluster.properties was not filtered by Maven (version=" + version
                        + "); rebuild with mvn -pl local-cluster package");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
