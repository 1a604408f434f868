package io.steadfast.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** One or more service jars the cluster needs have not been built. */
public final class MissingJarException extends RuntimeException {

    private final List<Path> missing;

    public MissingJarException(List<Path> missing, String buildCommand, Path root) {
        super("Missing service jar" + (missing.size() > 1 ? "s" : "") + ":\n"
                + missing.stream().map(jar -> "  " + jar).collect(Collectors.joining("\n"))
                + "\nBuild them from " + root + " with: " + buildCommand + "  (or run ./steadfast local, which builds what is missing)");
        this.missing = List.copyOf(missing);
    }

    public List<Path> missing() {
        return missing;
    }
}
