package io.steadfast.dashboard.examples;

import tools.jackson.databind.JsonNode;

/**
 * One example topology the page offers to start from.
 *
 * @param name the file's name without {@code .json}, e.g. {@code word-count}
 * @param spec the topology spec, the file's JSON as it is
 */
public record ExampleTopology(String name, JsonNode spec) {
}
