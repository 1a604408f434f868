package io.steadfast.helm;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The fields of a parsed manifest that the Kubernetes model does not know. fabric8's model classes never fail on an
 * unknown field (or on a value of the wrong type): they keep it in their {@code additionalProperties}. This walks the
 * whole object tree and lists every such entry by its path, e.g.
 * {@code spec.template.spec.containers[0].readinesProbe}.
 */
final class UnknownFields {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
    private static final String ADDITIONAL_PROPERTIES = "additionalProperties";

    private UnknownFields() {
    }

    /** The paths of the unknown fields under {@code root}; empty when every field is a field of the model. */
    static List<String> in(Object root) {
        List<String> found = new ArrayList<>();
        visit(root, "", found);
        return found;
    }

    private static void visit(Object value, String path, List<String> found) {
        if (value instanceof Collection<?> items) {
            int index = 0;
            for (Object item : items) {
                visit(item, path + "[" + index++ + "]", found);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> visit(item, join(path, String.valueOf(key)), found));
        } else if (value != null && value.getClass().getName().startsWith(MODEL_PACKAGE)) {
            visitModelObject(value, path, found);
        }
    }

    private static void visitModelObject(Object object, String path, List<String> found) {
        for (Class<?> type = object.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                Object fieldValue = read(field, object);
                if (field.getName().equals(ADDITIONAL_PROPERTIES)) {
                    if (fieldValue instanceof Map<?, ?> unknown) {
                        unknown.keySet().forEach(key -> found.add(join(path, String.valueOf(key))));
                    }
                } else {
                    visit(fieldValue, join(path, jsonName(field)), found);
                }
            }
        }
    }

    private static Object read(Field field, Object object) {
        try {
            field.setAccessible(true);
            return field.get(object);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("Cannot read " + field + " of a " + object.getClass().getName(), e);
        }
    }

    private static String jsonName(Field field) {
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        return property != null && !property.value().isEmpty() ? property.value() : field.getName();
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
