package io.steadfast.helm;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout these tests run in: {@code -Dsteadfast.repository} (set by the pom), else the parent directory. */
final class Repository {

    private Repository() {
    }

    static Path root() {
        String given = System.getProperty("steadfast.repository");
        Path root = (given != null ? Path.of(given) : Path.of("..")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("helm"))) {
            throw new IllegalStateException(root + " is not the Steadfast checkout (no pom.xml and helm/ there);"
                    + " run the tests from helm-chart-tests/ or pass -Dsteadfast.repository");
        }
        return root;
    }
}
