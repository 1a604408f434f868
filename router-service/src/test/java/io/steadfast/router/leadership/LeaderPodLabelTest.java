package io.steadfast.router.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The leader's pod label, which the router Service selects, against the fabric8 mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class LeaderPodLabelTest {

    private static final String NAMESPACE = "steadfast";

    KubernetesClient client;

    @BeforeEach
    void routerPods() {
        for (String name : new String[] {"router-a", "router-b"}) {
            client.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName(name)
                    .withLabels(Map.of("app.kubernetes.io/component", "router")).endMetadata().build()).create();
        }
    }

    @Test
    void theLeaderTakesTheLabelFromTheDeposedOne() {
        new LeaderPodLabel(client, NAMESPACE, "router-a").lead();
        assertThat(labelOf("router-a")).isEqualTo(LeaderPodLabel.LEADER);

        new LeaderPodLabel(client, NAMESPACE, "router-b").lead();

        assertThat(labelOf("router-b")).isEqualTo(LeaderPodLabel.LEADER);
        assertThat(labelOf("router-a")).as("one pod behind the Service").isNull();
        assertThat(pod("router-a").getMetadata().getLabels()).containsEntry("app.kubernetes.io/component", "router");
    }

    @Test
    void aRestartedRouterStandsByWithoutTheLabel() {
        LeaderPodLabel router = new LeaderPodLabel(client, NAMESPACE, "router-a");
        router.lead();

        router.standBy(); // it halted and its container restarted in the same pod

        assertThat(labelOf("router-a")).isNull();
    }

    private Pod pod(String name) {
        return client.pods().inNamespace(NAMESPACE).withName(name).get();
    }

    private String labelOf(String name) {
        return pod(name).getMetadata().getLabels().get(LeaderPodLabel.LABEL);
    }
}
