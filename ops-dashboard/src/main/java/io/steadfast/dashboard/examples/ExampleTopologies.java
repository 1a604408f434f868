package io.steadfast.dashboard.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The example topologies of the repository ({@code examples/*.json} at its root), which the build copies into the
 * jar as {@code classpath:examples/} (see ops-dashboard's pom). Read once, at startup: they are part of the build, so
 * one that is not JSON fails the start with its name rather than a page later. Immutable, so thread-safe.
 */
public class ExampleTopologies {

    /** Where the build puts them. */
    public static final String LOCATION = "classpath:examples/*.json";

    private final List<ExampleTopology> examples;

    private ExampleTopologies(List<ExampleTopology> examples) {
        this.examples = List.copyOf(examples);
    }

    /**
     * Reads every {@code *.json} at {@code pattern} (a Spring resource pattern such as {@link #LOCATION}), sorted by
     * name.
     *
     * @throws IllegalStateException if a file is not JSON, naming it
     * @throws UncheckedIOException if the files cannot be listed or read
     */
    public static ExampleTopologies load(String pattern, JsonMapper json) {
        List<ExampleTopology> read = new ArrayList<>();
        try {
            for (Resource file : new PathMatchingResourcePatternResolver().getResources(pattern)) {
                read.add(new ExampleTopology(nameOf(file), parse(file, json)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list the example topologies at " + pattern, e);
        }
        read.sort(Comparator.comparing(ExampleTopology::name));
        return new ExampleTopologies(read);
    }

    /** Sorted by name; empty if the build packaged none. */
    public List<ExampleTopology> all() {
        return examples;
    }

    private static String nameOf(Resource file) {
        String filename = String.valueOf(file.getFilename());
        return filename.endsWith(".json") ? filename.substring(0, filename.length() - ".json".length()) : filename;
    }

    private static JsonNode parse(Resource file, JsonMapper json) throws IOException {
        try (InputStream in = file.getInputStream()) {
            return json.readTree(in);
        } catch (JacksonException e) {
            throw new IllegalStateException("The example topology " + file.getDescription() + " is not JSON: "
                    + e.getOriginalMessage() + "; fix examples/" + file.getFilename() + " and build again", e);
        }
    }
}
