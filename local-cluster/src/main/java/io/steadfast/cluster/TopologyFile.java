package io.steadfast.cluster;

import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A topology spec file as the launcher needs it: the JSON text to send to the router (which validates it),
 * its id and its sink operators (those no other operator reads from), whose results are shown at the end.
 */
public record TopologyFile(Path path, String json, TopologyId id, List<OperatorId> sinks) {

    /**
     * Reads a spec file.
     *
     * @throws IllegalArgumentException naming the file if it is missing, is not JSON or has no valid id
     */
    public static TopologyFile read(Path path) {
        String json;
        try {
            json = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read topology file " + path + ": " + e.getMessage(), e);
        }
        return parse(path, json);
    }

    static TopologyFile parse(Path path, String json) {
        JsonNode tree;
        try {
            tree = JsonMapper.shared().readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("Topology file " + path + " is not valid JSON: " + e.getOriginalMessage());
        }
        String id = tree.path("id").asString("");
        if (!TopologyId.isValid(id)) {
            throw new IllegalArgumentException("Topology file " + path + " has no valid \"id\" (was '" + id
                    + "'): use lowercase letters, digits and dashes");
        }
        Set<String> readFrom = new HashSet<>();
        for (JsonNode operator : tree.path("operators")) {
            for (JsonNode input : operator.path("inputs")) {
                readFrom.add(input.path("from").asString(""));
            }
        }
        List<OperatorId> sinks = tree.path("operators").valueStream()
                .map(operator -> operator.path("id").asString(""))
                .filter(OperatorId::isValid)
                .filter(operator -> !readFrom.contains(operator))
                .map(OperatorId::new)
                .toList();
        return new TopologyFile(path, json, new TopologyId(id), sinks);
    }
}
