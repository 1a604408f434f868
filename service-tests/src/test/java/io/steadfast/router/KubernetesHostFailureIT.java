package io.steadfast.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The router in Kubernetes scheduling mode ({@code steadfast.router.scheduling.mode=kubernetes}) against the fabric8
 * mock server in CRUD mode, with three real hosts in this JVM that stand for the pods of the StatefulSet
 * {@code steadfast-pe-host} (pod name = host id, pod uid = the instance the host registers with); one is kept as a
 * standby. A word count runs with LOCAL recovery; a pod of a host that runs tasks then fails in the API — deleted, or
 * turned not ready — before anything else notices. The router must take the pod event as the failure, recover the
 * lost tasks locally onto the standby (every key's count exact), and delete the failed pod if it still exists. The
 * mock server runs no StatefulSet controller and no kubelet, so the test does what they would: it stops the failed
 * host's process, recreates the pod under the same name with a new uid, and starts a host in it, which must join as
 * the new standby (the pool refilled).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(180)
class KubernetesHostFailureIT {

    private static final long COUNT = 100_000;
    private static final int KEYS = 200;
    private static final String SET = "steadfast-pe-host";
    private static final List<String> HOSTS = List.of(SET + "-0", SET + "-1", SET + "-2");

    KubernetesClient client;

    private StatefulSet statefulSet;
    private InProcessCluster cluster;

    @BeforeEach
    void startRouterAndHostsInTheirPods() {
        statefulSet = client.apps().statefulSets().resource(new StatefulSetBuilder().withNewMetadata().withName(SET)
                .endMetadata().withNewSpec().withReplicas(3).endSpec().build()).create();
        InProcessCluster.Builder builder = InProcessCluster.builder()
                .routerBean("kubernetesClient", client)
                .routerBean("sharedCheckpointRecords", new InMemoryCheckpointRecords(Clock.systemUTC()))
                .routerSetting("--steadfast.router.checkpoint.interval=500ms")
                .routerSetting("--steadfast.router.standby-hosts=1")
                .routerSetting("--steadfast.router.scheduling.mode=kubernetes")
                .routerSetting("--steadfast.router.scheduling.pe-hosts=3")
                .routerSetting("--steadfast.router.scheduling.kubernetes.instance=rel")
                .hostBean("snapshotStore", new InMemorySnapshotStore())
                .heartbeatInterval(Duration.ofMillis(200));
        for (String host : HOSTS) {
            builder.host(host, "--steadfast.host.instance=" + uid(readiness(createPod(host), true)));
        }
        cluster = builder.start();
        cluster.awaitHostsLive(Duration.ofSeconds(60));
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aDeletedPodsTasksRecoverLocallyOnTheStandbyAndItsReplacementJoinsAsTheNewStandby() {
        String failed = hostRunningTasksMidStream();
        Pod pod = client.pods().withName(failed).get();

        client.pods().resource(pod).delete();

        JsonNode recovery = awaitRecovery("POD_DELETED", failed);
        replaceHost(failed, pod, recovery);
    }

    @Test
    void aPodThatTurnsNotReadyIsDeletedAndItsTasksRecoverLocallyOnTheStandby() {
        String failed = hostRunningTasksMidStream();
        Pod pod = client.pods().withName(failed).get();

        readiness(pod, false);

        JsonNode recovery = awaitRecovery("POD_NOT_READY", failed);
        await("the failed pod deleted").atMost(Duration.ofSeconds(10))
                .until(() -> client.pods().withName(failed).get() == null);
        replaceHost(failed, pod, recovery);
    }

    @Test
    void aRestartedRouterReconcilesWithoutDeletingAHealthyPod() {
        Map<String, String> uids = new TreeMap<>();
        HOSTS.forEach(host -> uids.put(host, uid(client.pods().withName(host).get())));

        cluster.restartRouter();

        cluster.awaitHostsLive(Duration.ofSeconds(30)); // they re-registered with the new router
        // past the restart grace (3 s, steadfast.router.host-startup-grace), reconciling every 5 s: nothing deleted
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() -> HOSTS.stream()
                .allMatch(host -> client.pods().withName(host).get() != null
                        && uids.get(host).equals(uid(client.pods().withName(host).get()))));
        assertThat(get("/api/v1/hosts").valueStream().map(h -> h.get("status").asString())).containsOnly("LIVE");
        assertThat(get("/api/v1/recoveries").size()).isZero();
        assertThat(get("/actuator/health/kubernetesScheduling").get("status").asString()).isEqualTo("UP");
    }

    /** Submits the word count, waits for two checkpoints, and names a host that runs some of its tasks. */
    private String hostRunningTasksMidStream() {
        var submitted = cluster.api().post().uri("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).body("""
                {"id": "k8s-it", "recovery": {"mode": "LOCAL"}, "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 10000}},
                  {"id": "count", "type": "keyed-count", "parallelism": 2, "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 2, "inputs": [{"from": "count"}]}
                ]}""".formatted(COUNT, KEYS)).retrieve().toEntity(JsonNode.class);
        assertThat(submitted.getStatusCode().value()).as("%s", submitted.getBody()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
                get("/api/v1/topologies/k8s-it/checkpoints").get("checkpoints").valueStream()
                        .filter(c -> c.get("status").asString().equals("COMPLETED")).count() >= 2);
        JsonNode detail = get("/api/v1/topologies/k8s-it");
        assertThat(detail.get("status").asString()).as("mid-stream").isEqualTo("RUNNING");
        List<String> used = detail.get("tasks").valueStream().map(t -> t.get("host").asString()).distinct().toList();
        assertThat(used).as("two hosts run tasks, one is the standby").hasSize(2);
        return used.get(0);
    }

    private JsonNode awaitRecovery(String cause, String failed) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            JsonNode recoveries = get("/api/v1/recoveries");
            return recoveries.size() == 1 && recoveries.get(0).get("status").asString().equals("RECOVERED");
        });
        JsonNode recovery = get("/api/v1/recoveries").get(0);
        assertThat(recovery.get("failedHost").asString()).isEqualTo(failed);
        assertThat(recovery.get("detectionCause").asString()).isEqualTo(cause);
        assertThat(recovery.get("mode").asString()).isEqualTo("LOCAL");
        return recovery;
    }

    /**
     * What the kubelet and the StatefulSet controller would do: the failed host's process stops, a new pod gets its
     * name; a host starts in it. Then the topology must finish exact, off the failed host, and the new host be the
     * standby.
     */
    private void replaceHost(String failed, Pod failedPod, JsonNode recovery) {
        // its process still runs (terminating): fenced, it registers again, and must not come back as a standby
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> get("/api/v1/hosts")
                .valueStream().filter(h -> h.get("hostId").asString().equals(failed))
                .noneMatch(h -> h.get("status").asString().equals("LIVE")));
        cluster.host(failed).close();
        if (client.pods().withName(failed).get() != null) {
            client.pods().withName(failed).delete();
        }
        Pod replacement = readiness(createPod(failed), true);
        assertThat(uid(replacement)).isNotEqualTo(uid(failedPod));
        cluster.startHost(failed, "--steadfast.host.instance=" + uid(replacement));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                get("/api/v1/topologies/k8s-it").get("status").asString().equals("FINISHED"));
        JsonNode detail = get("/api/v1/topologies/k8s-it");
        assertThat(detail.get("tasks").valueStream().map(t -> t.get("host").asString())).doesNotContain(failed);
        Map<String, Long> counts = new TreeMap<>();
        get("/api/v1/topologies/k8s-it/results/sink?limit=100000").get("values").properties()
                .forEach(entry -> counts.put(entry.getKey(), entry.getValue().asLong()));
        assertThat(counts).hasSize(KEYS);
        for (int k = 0; k < KEYS; k++) {
            assertThat(counts.get("key-" + k)).as("count of key-%d", k).isEqualTo(COUNT / KEYS);
        }
        assertThat(recovery.get("otherTasksPaused").asBoolean()).as("only the lost tasks moved").isFalse();

        cluster.awaitHostsLive(Duration.ofSeconds(60)); // the replacement registered: the pool is whole again
        assertThat(client.pods().withName(failed).get().getMetadata().getUid()).isEqualTo(uid(replacement));
        assertThat(client.apps().statefulSets().withName(SET).get().getSpec().getReplicas()).isEqualTo(3);
    }

    private JsonNode get(String path) {
        return cluster.api().get().uri(path).retrieve().body(JsonNode.class);
    }

    /** A pod as the chart's StatefulSet makes it: labelled for release {@code rel}, owned by the StatefulSet. */
    private Pod createPod(String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app.kubernetes.io/name", "steadfast");
        labels.put("app.kubernetes.io/instance", "rel");
        labels.put("app.kubernetes.io/component", "pe-host");
        return client.pods().resource(new PodBuilder().withNewMetadata().withName(name).withLabels(labels)
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("StatefulSet").withName(SET)
                .withUid(statefulSet.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                .withNewSpec().addNewContainer().withName("host").withImage("steadfast/pe-host").endContainer()
                .endSpec().build()).create();
    }

    /** The Ready condition the kubelet would set from the readiness probe. */
    private Pod readiness(Pod pod, boolean ready) {
        Pod current = client.pods().withName(pod.getMetadata().getName()).get();
        current.setStatus(new PodStatusBuilder().withPhase("Running").addToConditions(new PodConditionBuilder()
                .withType("Ready").withStatus(ready ? "True" : "False").withLastTransitionTime(Instant.now().toString())
                .build()).build());
        return client.pods().resource(current).updateStatus();
    }

    private static String uid(Pod pod) {
        return pod.getMetadata().getUid();
    }
}
