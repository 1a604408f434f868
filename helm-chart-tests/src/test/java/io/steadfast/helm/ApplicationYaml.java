package io.steadfast.helm;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** A component's application.yaml, from its ConfigMap, parsed and flattened to Spring's dotted keys. */
final class ApplicationYaml {

    static final String KEY = "application.yaml";

    private ApplicationYaml() {
    }

    /** Every leaf of the ConfigMap's application.yaml by its dotted key, values as strings. */
    static Map<String, String> settings(ConfigMap configMap) {
        String text = configMap.getData() == null ? null : configMap.getData().get(KEY);
        if (text == null) {
            throw new AssertionError("ConfigMap " + configMap.getMetadata().getName() + " has no " + KEY);
        }
        Object parsed = new Yaml().load(text);
        if (!(parsed instanceof Map<?, ?> root)) {
            throw new AssertionError(KEY + " of ConfigMap " + configMap.getMetadata().getName()
                    + " is not a YAML mapping:\n" + text);
        }
        Map<String, String> flat = new LinkedHashMap<>();
        flatten("", root, flat);
        return flat;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> flat) {
        map.forEach((key, value) -> {
            String path = prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key;
            if (value instanceof Map<?, ?> nested) {
                flatten(path, nested, flat);
            } else {
                flat.put(path, String.valueOf(value));
            }
        });
    }
}
