package io.steadfast.helm;

import static io.steadfast.helm.ChartValues.nameOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.steadfast.helm.RenderedManifests.PodOf;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What only the non-default values (values-production.yaml) or only the defaults render. */
class ProductionValuesTest {

    @Test
    void takesExternalMongoDbUriFromSecretInRouterAndCheckpointService() {
        RenderedManifests rendered = Rendered.with(ChartValues.PRODUCTION);

        for (String component : List.of("router", "checkpoint-service")) {
            Container container = rendered.podOf(component).spec().getContainers().get(0);
            assertThat(container.getEnv()).as(component).anySatisfy(env -> {
                assertThat(env.getName()).isEqualTo("STEADFAST_MONGODB_URI");
                assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("steadfast-mongodb");
                assertThat(env.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("connection-string");
            });
        }
        assertThat(rendered.all()).extracting(RenderedManifests::describe)
                .noneMatch(name -> name.endsWith(nameOf("mongodb")));
    }

    @Test
    void routesIngressToDashboard() {
        Ingress ingress = Rendered.with(ChartValues.PRODUCTION).named(Ingress.class, nameOf("ops-dashboard"));

        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        assertThat(ingress.getSpec().getTls()).singleElement()
                .satisfies(tls -> assertThat(tls.getSecretName()).isEqualTo("steadfast-tls"));
        assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getHost()).isEqualTo("steadfast.example.org");
            assertThat(rule.getHttp().getPaths()).singleElement().satisfies(path -> {
                assertThat(path.getBackend().getService().getName()).isEqualTo(nameOf("ops-dashboard"));
                assertThat(path.getBackend().getService().getPort().getName()).isEqualTo("http");
            });
        });
    }

    @Test
    void loadsExtraOperatorJarsInRouterHostsAndVotersOnly() {
        RenderedManifests rendered = Rendered.with(ChartValues.PRODUCTION);

        for (PodOf pod : rendered.pods()) {
            boolean loads = List.of("router", "pe-host", "voter").contains(pod.component());
            assertThat(pod.spec().getInitContainers()).as(pod.toString()).hasSize(loads ? 1 : 0);
            if (loads) {
                assertThat(pod.spec().getInitContainers().get(0).getImage())
                        .isEqualTo("images.example.org/team/my-operators:1.0");
                assertThat(pod.spec().getContainers().get(0).getEnv()).anySatisfy(env -> {
                    assertThat(env.getName()).isEqualTo("LOADER_PATH");
                    assertThat(env.getValue()).isEqualTo("/opt/steadfast/operators,/opt/steadfast/extra-operators");
                });
            }
        }
    }

    @Test
    void pullsImagesFromConfiguredRegistryWithPullSecret() {
        PodOf router = Rendered.with(ChartValues.PRODUCTION).podOf("router");

        assertThat(router.spec().getContainers().get(0).getImage())
                .isEqualTo("images.example.org/team/steadfast/router-service:1.2.3");
        assertThat(router.spec().getImagePullSecrets()).singleElement()
                .satisfies(secret -> assertThat(secret.getName()).isEqualTo("regcred"));
    }

    @Test
    void keepsBuiltInMongoDbOnPersistentVolumeByDefault() {
        StatefulSet mongodb = Rendered.with(ChartValues.DEFAULTS).named(StatefulSet.class, nameOf("mongodb"));

        assertThat(mongodb.getSpec().getVolumeClaimTemplates()).extracting(PersistentVolumeClaim::getMetadata)
                .singleElement().satisfies(meta -> assertThat(meta.getName()).isEqualTo("data"));
        assertThat(Rendered.with(ChartValues.DEFAULTS).ofKind(Ingress.class)).isEmpty();
    }
}
