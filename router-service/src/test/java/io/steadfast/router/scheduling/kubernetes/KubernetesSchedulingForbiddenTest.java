package io.steadfast.router.scheduling.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.scheduling.SchedulingMode;
import io.steadfast.router.scheduling.SchedulingProperties;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A router whose service account lacks the RBAC to list pods and to read the StatefulSet's scale: the mock server in
 * expectations mode answers those calls 403, as the API server does. The refusals are logged at ERROR once each and
 * the health component is DOWN naming the verb, resource and namespace and what to grant.
 */
@EnableKubernetesMockClient
@ExtendWith(OutputCaptureExtension.class)
@Timeout(60)
class KubernetesSchedulingForbiddenTest {

    KubernetesMockServer server;
    KubernetesClient client;
    private KubernetesHostProvisioner provisioner;

    @AfterEach
    void stop() {
        provisioner.stop();
    }

    private static io.fabric8.kubernetes.api.model.Status forbidden(String verb, String resource, String group) {
        return new StatusBuilder().withCode(403).withReason("Forbidden").withStatus("Failure").withMessage(resource
                + " is forbidden: User \"system:serviceaccount:test:steadfast-router\" cannot " + verb + " resource \""
                + resource + "\" in API group \"" + group + "\" in the namespace \"test\"").build();
    }

    @Test
    void aForbiddenCallIsLoggedOnceAndTurnsTheHealthComponentDownNamingWhatToGrant(CapturedOutput output) {
        server.expect().get().withPath("/api/v1/namespaces/test/pods?labelSelector=app.kubernetes.io%2Finstance%3Drel"
                + "%2Capp.kubernetes.io%2Fname%3Dsteadfast&resourceVersion=0")
                .andReturn(403, forbidden("list", "pods", "")).always();
        server.expect().get().withPath("/apis/apps/v1/namespaces/test/statefulsets/steadfast-pe-host/scale")
                .andReturn(403, forbidden("get", "statefulsets/scale", "apps")).always();
        Clock clock = Clock.systemUTC();
        SchedulingProperties settings = new SchedulingProperties(SchedulingMode.KUBERNETES, 3, 0,
                new SchedulingProperties.Kubernetes("steadfast-pe-host", "steadfast-voter", "rel",
                        Duration.ofSeconds(30), Duration.ofMillis(100)), SchedulingProperties.Local.NONE);
        KubernetesAccess access = new KubernetesAccess(client.getNamespace(), clock);
        provisioner = new KubernetesHostProvisioner(client, access, settings,
                new HeartbeatFailureDetector(new InMemoryHostRegistry(), clock, Duration.ofSeconds(1)), host -> false,
                clock, Duration.ZERO);
        KubernetesSchedulingHealthIndicator health = new KubernetesSchedulingHealthIndicator(access, provisioner);

        provisioner.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> access.denials().size() == 2);
        long reconciliations = server.getRequestCount();
        await("further refused calls").atMost(Duration.ofSeconds(10))
                .until(() -> server.getRequestCount() > reconciliations + 5);
        Health down = health.health(true);
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        @SuppressWarnings("unchecked")
        List<Map<String, String>> denied = (List<Map<String, String>>) down.getDetails().get("denied");
        assertThat(denied).extracting(d -> d.get("verb") + " " + d.get("resource") + " in " + d.get("namespace"))
                .containsExactly("get apps/statefulsets/scale in test", "list and watch pods in test");
        assertThat(denied.get(0).get("grant")).contains("apiGroups: [\"apps\"], resources: [\"statefulsets/scale\"],"
                + " verbs: [\"get\"]");
        assertThat(denied.get(1).get("error")).contains("403 Forbidden", "cannot list resource \"pods\"");
        assertThat(output.getOut().lines().filter(line -> line.contains("ERROR")
                && line.contains("Host scheduling is impaired"))).hasSize(2);
    }
}
