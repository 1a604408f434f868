package io.steadfast.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A service's OpenAPI description checked in under {@code docs/openapi/}, so that a change of its API is a visible
 * diff: {@link #assertServed} compares the spec a service serves with the file, and rewrites the file first when run
 * with {@code -Dsteadfast.openapi.write=true} (after changing the API on purpose).
 */
public final class CheckedInApiSpec {

    private static final String WRITE = "steadfast.openapi.write";
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private final String module;
    private final String file;
    private final String testClass;

    /**
     * @param module    the Maven module that serves the spec (also how the repository root is recognised)
     * @param file      the file under {@code docs/openapi/}
     * @param testClass the test that checks it, named in the command that rewrites the file
     */
    public CheckedInApiSpec(String module, String file, String testClass) {
        this.module = module;
        this.file = file;
        this.testClass = testClass;
    }

    /** Fails, naming the command that rewrites the file, unless {@code servedSpec} is the checked-in one. */
    public void assertServed(String servedSpec) {
        Path path = repoRoot().resolve("docs/openapi").resolve(file);
        String served = normalised(servedSpec);
        String rewrite = "mvn -B -pl " + module + " -am test -Dtest=" + testClass
                + " -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE + "=true";
        try {
            if (Boolean.getBoolean(WRITE)) {
                Files.createDirectories(path.getParent());
                Files.writeString(path, served);
            }
            if (!Files.exists(path)) {
                throw new AssertionError(path + " is missing; write it with " + rewrite);
            }
            String checkedIn = Files.readString(path);
            if (!checkedIn.equals(served)) {
                throw new AssertionError(path + " is out of date; rewrite it with " + rewrite + "\n"
                        + firstDifference(checkedIn, served));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first line where the two differ, for the failure message. */
    private static String firstDifference(String checkedIn, String served) {
        String[] expected = checkedIn.split("\n", -1);
        String[] actual = served.split("\n", -1);
        for (int line = 0; line < Math.max(expected.length, actual.length); line++) {
            String was = line < expected.length ? expected[line] : "(end of file)";
            String now = line < actual.length ? actual[line] : "(end of spec)";
            if (!was.equals(now)) {
                return "first difference at line " + (line + 1) + ":\n  checked in: " + was.strip()
                        + "\n  served:     " + now.strip();
            }
        }
        return "";
    }

    /** Sorted keys at every level, no {@code servers} (the URL and port of the request), a final newline. */
    static String normalised(String spec) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = JSON.readValue(spec, Map.class);
        tree.remove("servers");
        return JSON.writeValueAsString(tree) + "\n";
    }

    private Path repoRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.isDirectory(dir.resolve(module))) {
                return dir;
            }
        }
        throw new IllegalStateException("No repository root (with docs/ and " + module + "/) above "
                + Path.of("").toAbsolutePath());
    }
}
