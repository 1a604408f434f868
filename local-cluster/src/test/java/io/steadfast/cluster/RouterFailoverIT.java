package io.steadfast.cluster;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RouterFailoverScenario} with the routers' lease in the embedded store ({@code leader-election.mode=store}). */
class RouterFailoverIT extends RouterFailoverScenario {

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("router-failover", 3).andStandbyHosts(1)
            .andRouters(2);

    @Override
    ClusterFixture cluster() {
        return CLUSTER;
    }
}
