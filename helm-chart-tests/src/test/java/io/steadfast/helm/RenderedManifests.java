package io.steadfast.helm;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The objects {@code helm template} rendered, each parsed into its fabric8 model class. Parsing fails on a document
 * of a kind the model does not know, on a document that is not an object with metadata, and (through
 * {@link UnknownFields}) on any field the model does not know.
 */
final class RenderedManifests {

    private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*$");
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final List<HasMetadata> objects;

    private RenderedManifests(List<HasMetadata> objects) {
        this.objects = List.copyOf(objects);
    }

    /** Parses helm's multi-document YAML output. */
    static RenderedManifests parse(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : DOCUMENT_SEPARATOR.split(yaml)) {
            if (isBlank(document)) {
                continue;
            }
            objects.add(parseOne(document));
        }
        return new RenderedManifests(objects);
    }

    /** One YAML document as its model object, with no unknown field. */
    static HasMetadata parseOne(String document) {
        Object parsed = SERIALIZATION.unmarshal(document);
        if (!(parsed instanceof HasMetadata object)) {
            throw new AssertionError("Not a Kubernetes object with metadata: " + parsed + "\n" + document);
        }
        if (object instanceof GenericKubernetesResource generic) {
            throw new AssertionError("The Kubernetes model knows no kind " + generic.getKind() + " of apiVersion "
                    + generic.getApiVersion() + " (a misspelt kind or apiVersion?):\n" + document);
        }
        List<String> unknown = UnknownFields.in(object);
        if (!unknown.isEmpty()) {
            throw new AssertionError(describe(object) + " has fields the Kubernetes model does not know (misspelt, or"
                    + " misplaced by indentation): " + unknown + "\n" + document);
        }
        return object;
    }

    private static boolean isBlank(String document) {
        return document.lines().map(String::strip).allMatch(line -> line.isEmpty() || line.startsWith("#"));
    }

    static String describe(HasMetadata object) {
        return object.getKind() + " " + object.getMetadata().getName();
    }

    List<HasMetadata> all() {
        return objects;
    }

    <T extends HasMetadata> List<T> ofKind(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return ofKind(type).stream().filter(object -> name.equals(object.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new AssertionError("No " + type.getSimpleName() + " named " + name + " among "
                        + objects.stream().map(RenderedManifests::describe).toList()));
    }

    /** Every pod the objects run: those of Deployments and StatefulSets, and bare Pods (the helm test hook). */
    List<PodOf> pods() {
        List<PodOf> pods = new ArrayList<>();
        for (HasMetadata object : objects) {
            if (object instanceof Deployment deployment) {
                pods.add(new PodOf(object, deployment.getSpec().getTemplate().getMetadata(),
                        deployment.getSpec().getTemplate().getSpec()));
            } else if (object instanceof StatefulSet statefulSet) {
                pods.add(new PodOf(object, statefulSet.getSpec().getTemplate().getMetadata(),
                        statefulSet.getSpec().getTemplate().getSpec()));
            } else if (object instanceof Pod pod) {
                pods.add(new PodOf(object, pod.getMetadata(), pod.getSpec()));
            }
        }
        return pods;
    }

    /** The (first) pod of a component. */
    PodOf podOf(String component) {
        return pods().stream().filter(pod -> component.equals(pod.component())).findFirst()
                .orElseThrow(() -> new AssertionError("No pod of component " + component + " among " + pods()));
    }

    /**
     * A pod as an object defines it.
     *
     * @param owner    the Deployment, StatefulSet or Pod
     * @param metadata the pod's (template's) metadata
     * @param spec     the pod spec
     */
    record PodOf(HasMetadata owner, ObjectMeta metadata, PodSpec spec) {

        String component() {
            return Objects.requireNonNullElse(metadata.getLabels(), Map.<String, String>of())
                    .get("app.kubernetes.io/component");
        }

        boolean isHelmTestHook() {
            return "test".equals(Objects.requireNonNullElse(owner.getMetadata().getAnnotations(),
                    Map.<String, String>of()).get("helm.sh/hook"));
        }

        @Override
        public String toString() {
            return describe(owner);
        }
    }
}
