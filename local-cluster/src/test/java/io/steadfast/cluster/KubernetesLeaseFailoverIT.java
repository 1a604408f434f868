package io.steadfast.cluster;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RouterFailoverScenario} with the routers' lease a Kubernetes Lease ({@code leader-election.mode=kubernetes})
 * in the fabric8 mock API server (CRUD mode), which this test's JVM serves over HTTP to the router processes.
 */
class KubernetesLeaseFailoverIT extends RouterFailoverScenario {

    private static final KubernetesMockServer API = startedApi();

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("kubernetes-lease-failover", 3).andStandbyHosts(1)
            .andRouters(2, List.of("--steadfast.router.leader-election.mode=kubernetes",
                    "--steadfast.router.leader-election.namespace=steadfast",
                    "--spring.cloud.kubernetes.client.master-url=" + API.url("/"),
                    "--spring.cloud.kubernetes.client.trust-certs=true"));

    private static KubernetesMockServer startedApi() {
        KubernetesMockServer api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        api.init();
        return api;
    }

    @AfterAll
    static void stopApi() {
        API.destroy();
    }

    @Override
    ClusterFixture cluster() {
        return CLUSTER;
    }
}
