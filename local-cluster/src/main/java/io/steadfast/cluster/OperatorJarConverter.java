package io.steadfast.cluster;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads an {@code --operators} jar: a file that exists, taken from the working directory when relative, so that a
 * wrong path is a usage error before any process starts rather than a router that does not know a type.
 */
final class OperatorJarConverter implements ITypeConverter<Path> {

    @Override
    public Path convert(String value) {
        Path jar;
        try {
            jar = Path.of(value).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new TypeConversionException("'" + value + "' is not a path: " + e.getReason());
        }
        if (!Files.isRegularFile(jar)) {
            throw new TypeConversionException("no jar at " + jar + "; give the path of a built jar of operator types,"
                    + " e.g. examples/target/" + RepoLayout.EXAMPLES_ARTIFACT + "-<version>.jar (mvn -pl examples"
                    + " package builds it)");
        }
        return jar;
    }
}
