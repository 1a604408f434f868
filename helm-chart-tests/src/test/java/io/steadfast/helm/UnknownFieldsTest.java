package io.steadfast.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

/** The check every rendered manifest goes through catches what the fabric8 model alone would swallow. */
class UnknownFieldsTest {

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: example
              labels: {app: example}
            spec:
              replicas: 2
              selector:
                matchLabels: {app: example}
              template:
                metadata:
                  labels: {app: example}
                spec:
                  containers:
                    - name: app
                      image: example:1
                      readinessProbe:
                        httpGet: {path: /ready, port: 8080}
                      resources:
                        limits: {cpu: "1", memory: 1Gi}
            """;

    @Test
    void acceptsDeploymentWhoseFieldsModelKnows() {
        assertThat(RenderedManifests.parseOne(DEPLOYMENT)).isInstanceOf(Deployment.class);
    }

    @Test
    void rejectsMisspeltContainerFieldNamingItsPath() {
        String misspelt = DEPLOYMENT.replace("readinessProbe:", "readinesProbe:");

        assertThatThrownBy(() -> RenderedManifests.parseOne(misspelt))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Deployment example")
                .hasMessageContaining("spec.template.spec.containers[0].readinesProbe");
    }

    @Test
    void rejectsFieldIndentedUnderWrongParent() {
        String misplaced = DEPLOYMENT.replace("httpGet: {path: /ready, port: 8080}",
                "httpGet: {path: /ready, port: 8080}\n            imagePullPolicy: Always");

        assertThatThrownBy(() -> RenderedManifests.parseOne(misplaced))
                .hasMessageContaining("spec.template.spec.containers[0].readinessProbe.imagePullPolicy");
    }

    @Test
    void rejectsMisspeltTopLevelField() {
        assertThatThrownBy(() -> RenderedManifests.parseOne(DEPLOYMENT.replace("spec:\n  replicas", "specs:\n  replicas")))
                .hasMessageContaining("[specs]");
    }

    @Test
    void rejectsValueOfWrongTypeModelKeepsAside() {
        String wrongType = DEPLOYMENT.replace("replicas: 2", "replicas: two");

        assertThatThrownBy(() -> RenderedManifests.parseOne(wrongType)).hasMessageContaining("two");
    }

    @Test
    void rejectsKindModelDoesNotKnow() {
        assertThatThrownBy(() -> RenderedManifests.parseOne(DEPLOYMENT.replace("kind: Deployment", "kind: Deploymnet")))
                .hasMessageContaining("knows no kind Deploymnet");
    }
}
