package io.steadfast.router.scheduling.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.steadfast.router.RouterTestBeans;
import io.steadfast.router.scheduling.HostProvisioning;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * The router application in {@code kubernetes} scheduling mode, on a Kubernetes API (the mock server in expectations
 * mode) that refuses the router every call it makes: the router starts and serves, and its health endpoint shows the
 * component {@code kubernetesScheduling} DOWN, naming what was refused and what to grant.
 */
@SpringBootTest(properties = {"steadfast.router.scheduling.mode=kubernetes",
        "steadfast.router.scheduling.pe-hosts=2", "steadfast.router.scheduling.kubernetes.instance=rel",
        "steadfast.router.scheduling.kubernetes.reconcile-interval=100ms"})
@AutoConfigureMockMvc
@DirtiesContext // its scheduler would go on calling the stopped server
@Import({RouterTestBeans.class, KubernetesSchedulingHealthTest.ForbiddingApi.class})
class KubernetesSchedulingHealthTest {

    private static final KubernetesMockServer SERVER = new KubernetesMockServer(false);

    @Autowired
    MockMvc mvc;
    @Autowired
    HostProvisioning provisioning;

    /** An API server that answers every call 403, as to a service account without the chart's Role. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ForbiddingApi {

        @Bean
        KubernetesClient kubernetesClient() {
            SERVER.init();
            SERVER.expect().get().withPath("/apis/apps/v1/namespaces/test/statefulsets/steadfast-pe-host/scale")
                    .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(
                            "statefulsets.apps \"steadfast-pe-host\" is forbidden: User"
                                    + " \"system:serviceaccount:test:default\" cannot get resource"
                                    + " \"statefulsets/scale\" in API group \"apps\" in the namespace \"test\"")
                            .build()).always();
            return SERVER.createClient();
        }
    }

    @AfterAll
    static void stopServer() {
        SERVER.destroy();
    }

    @Test
    void aRefusedCallTurnsTheHealthComponentDownNamingWhatToGrant() throws Exception {
        assertThat(provisioning.isRunning()).as("started with the application").isTrue();

        await().atMost(Duration.ofSeconds(10)).until(() -> health().getResponse().getStatus() == 503);

        String body = health().getResponse().getContentAsString();
        assertThat(body).contains("\"status\":\"DOWN\"", "\"verb\":\"get\"",
                "\"resource\":\"apps/statefulsets/scale\"", "\"namespace\":\"test\"",
                "resources: [\\\"statefulsets/scale\\\"]", "cannot get resource");
    }

    private MvcResult health() throws Exception {
        return mvc.perform(MockMvcRequestBuilders.get("/actuator/health/kubernetesScheduling")).andReturn();
    }
}
