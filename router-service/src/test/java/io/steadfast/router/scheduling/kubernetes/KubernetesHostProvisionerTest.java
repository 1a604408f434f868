package io.steadfast.router.scheduling.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.steadfast.router.failure.DetectedFailure;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostAdmission;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.scheduling.FailedHost;
import io.steadfast.router.scheduling.HostProvisioning;
import io.steadfast.router.scheduling.SchedulingMode;
import io.steadfast.router.scheduling.SchedulingProperties;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Kubernetes provisioner against the fabric8 mock server in CRUD mode (real HTTP, real watches), with the router's
 * real host registry and failure detector. The heartbeat timeout is long, so every failure seen here comes from a pod
 * event or is declared by the test. The mock server has no StatefulSet controller and no kubelet: a test recreates a
 * deleted pod and sets Ready conditions itself ({@link HostPodsInCluster}). Recovery of the tasks is not in this
 * test (service-tests' {@code KubernetesHostFailureIT} runs it with real hosts).
 */
@EnableKubernetesMockClient(crud = true)
@Timeout(60)
class KubernetesHostProvisionerTest {

    private static final String PE_SET = "steadfast-pe-host";

    KubernetesMockServer server;
    KubernetesClient client;

    private final Clock clock = Clock.systemUTC();
    private final InMemoryHostRegistry hosts = new InMemoryHostRegistry();
    private final HeartbeatFailureDetector detector = new HeartbeatFailureDetector(hosts, clock, Duration.ofMinutes(1));
    private final HostAdmission admission = new HostAdmission(hosts, detector, clock, host -> false);
    private final List<KubernetesHostProvisioner> started = new ArrayList<>();
    private HostPodsInCluster cluster;
    private StatefulSet peHosts;

    @BeforeEach
    void createStatefulSet() {
        cluster = new HostPodsInCluster(client);
        peHosts = cluster.statefulSet(PE_SET, 3);
    }

    @AfterEach
    void stopProvisioners() {
        started.forEach(KubernetesHostProvisioner::stop);
    }

    private KubernetesHostProvisioner start(int peHostTarget, Duration restartGrace, Duration forceDeleteAfter) {
        return start(peHostTarget, 0, restartGrace, forceDeleteAfter);
    }

    private KubernetesHostProvisioner start(int peHostTarget, int voterTarget, Duration restartGrace,
                                            Duration forceDeleteAfter) {
        SchedulingProperties settings = new SchedulingProperties(SchedulingMode.KUBERNETES, peHostTarget, voterTarget,
                new SchedulingProperties.Kubernetes(PE_SET, "steadfast-voter", HostPodsInCluster.RELEASE,
                        forceDeleteAfter, Duration.ofMillis(100)), SchedulingProperties.Local.NONE);
        KubernetesHostProvisioner provisioner = new KubernetesHostProvisioner(client,
                new KubernetesAccess(client.getNamespace(), clock), settings, detector, host -> false, clock,
                restartGrace);
        new HostProvisioning(provisioner, detector, admission).start();
        started.add(provisioner);
        await("pod watch").atMost(Duration.ofSeconds(10)).until(provisioner::isWatchingPods);
        return provisioner;
    }

    private KubernetesHostProvisioner start() {
        return start(3, Duration.ZERO, Duration.ofSeconds(30));
    }

    /** A ready pod of the PE StatefulSet and its host, registered with the pod's uid as its instance. */
    private Pod readyHost(String name) {
        Pod pod = cluster.readiness(cluster.pod(name, "pe-host", peHosts), true);
        register(name, pod.getMetadata().getUid());
        return pod;
    }

    private void register(String name, String instance) {
        hosts.register(new HostId(name), HostKind.PE, URI.create("http://" + name), "tcp://" + name + ":1", "s1",
                instance, clock.instant());
    }

    private List<DetectionCause> failuresOf(String host) {
        return detector.failures().stream().filter(f -> f.host().value().equals(host)).map(DetectedFailure::cause)
                .toList();
    }

    @Test
    void aDeletedPodsHostIsDeclaredDeadAndItsStatefulSetIsScaledToTheTarget() {
        client.apps().statefulSets().withName(PE_SET).scale(2);
        readyHost("steadfast-pe-host-0");
        Pod failing = readyHost("steadfast-pe-host-1");
        start(3, Duration.ZERO, Duration.ofSeconds(30));

        client.pods().resource(failing).delete();

        await().atMost(Duration.ofSeconds(10)).until(() -> failuresOf("steadfast-pe-host-1"),
                causes -> causes.equals(List.of(DetectionCause.POD_DELETED)));
        assertThat(failuresOf("steadfast-pe-host-0")).isEmpty();
        await("scaled to the target").atMost(Duration.ofSeconds(10)).until(() -> cluster.replicas(PE_SET) == 3);
    }

    @Test
    void theProcessOfADeletedPodCannotRegisterAgainButItsReplacementCan() {
        Pod failing = readyHost("steadfast-pe-host-0");
        start();
        client.pods().resource(failing).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> !failuresOf("steadfast-pe-host-0").isEmpty());
        Pod replacement = cluster.readiness(cluster.recreate(failing, peHosts), true);

        // the old process, still terminating, fenced by the router, registers again with a new session
        HostAdmission.Verdict old = admission.register(new HostId("steadfast-pe-host-0"), HostKind.PE,
                URI.create("http://old"), "tcp://old:1", "s2", failing.getMetadata().getUid());
        HostAdmission.Verdict renewed = admission.register(new HostId("steadfast-pe-host-0"), HostKind.PE,
                URI.create("http://new"), "tcp://new:1", "s3", replacement.getMetadata().getUid());

        assertThat(old).isInstanceOfSatisfying(HostAdmission.RejoinPending.class, refused -> assertThat(refused.reason())
                .contains("gone for good"));
        assertThat(renewed).isInstanceOf(HostAdmission.Admitted.class);
    }

    @Test
    void aPodThatTurnsNotReadyAfterItWasReadyFailsItsHostAndIsDeleted() {
        Pod pod = readyHost("steadfast-pe-host-0");
        start();

        cluster.readiness(pod, false);

        await().atMost(Duration.ofSeconds(10)).until(() -> failuresOf("steadfast-pe-host-0"),
                causes -> causes.equals(List.of(DetectionCause.POD_NOT_READY)));
        await("failed pod deleted").atMost(Duration.ofSeconds(10))
                .until(() -> cluster.current("steadfast-pe-host-0") == null);
    }

    @Test
    void aPodThatTurnsNotReadyFailsItsHostThoughItsProcessKeepsHeartbeating() throws InterruptedException {
        Pod pod = readyHost("steadfast-pe-host-0");
        start();
        Thread heartbeats = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) { // the process runs on; only its pod is not ready
                hosts.heartbeat(new HostId("steadfast-pe-host-0"), List.of(), clock.instant());
            }
        });
        heartbeats.start();
        try {
            cluster.readiness(pod, false);

            await().atMost(Duration.ofSeconds(10)).until(() -> failuresOf("steadfast-pe-host-0"),
                    causes -> causes.equals(List.of(DetectionCause.POD_NOT_READY)));
            assertThat(detector.statusOf(hosts.find(new HostId("steadfast-pe-host-0")).orElseThrow()))
                    .as("its heartbeats do not refute its pod's state").isEqualTo(HostStatus.DEAD);
        } finally {
            heartbeats.interrupt();
            heartbeats.join();
        }
    }

    @Test
    void aFailureSeenBeforeItsHostWasKnownIsActedOnAtTheNextReconciliation() {
        Pod pod = cluster.readiness(cluster.pod("steadfast-pe-host-0", "pe-host", peHosts), true);
        Instant registeredBeforeItTurnedNotReady = clock.instant();
        Pod sentinel = readyHost("steadfast-pe-host-1");
        start();
        cluster.readiness(pod, false);
        cluster.readiness(sentinel, false); // handled after the other: its event found no host to act on
        await().atMost(Duration.ofSeconds(10)).until(() -> !failuresOf("steadfast-pe-host-1").isEmpty());
        assertThat(failuresOf("steadfast-pe-host-0")).isEmpty();

        // as after a takeover: the router learns of a registration made before the pod turned not ready
        hosts.register(new HostId("steadfast-pe-host-0"), HostKind.PE, URI.create("http://h0"), "tcp://h0:1", "s1",
                pod.getMetadata().getUid(), registeredBeforeItTurnedNotReady.minusSeconds(5));

        await("judged again from the watch's cache").atMost(Duration.ofSeconds(10))
                .until(() -> failuresOf("steadfast-pe-host-0"), causes -> causes.equals(List.of(
                        DetectionCause.POD_NOT_READY)));
    }

    @Test
    void aStartingPodThatWasNeverReadyIsNotTakenForFailed() {
        Pod starting = cluster.readiness(cluster.pod("steadfast-pe-host-0", "pe-host", peHosts), false);
        register("steadfast-pe-host-0", starting.getMetadata().getUid());
        start();

        cluster.readiness(starting, false); // another not-ready status update while it starts
        Pod sentinel = readyHost("steadfast-pe-host-1");
        cluster.readiness(sentinel, false); // seen after the starting pod's update: the watch has delivered it

        await().atMost(Duration.ofSeconds(10)).until(() -> !failuresOf("steadfast-pe-host-1").isEmpty());
        assertThat(failuresOf("steadfast-pe-host-0")).isEmpty();
        assertThat(cluster.current("steadfast-pe-host-0").getMetadata().getUid())
                .isEqualTo(starting.getMetadata().getUid());
    }

    @Test
    void aPodEventCountsOnlyForTheHostRegisteredWithThatPodsUid() {
        // the host registered from an earlier pod of this name; the pod now there is another incarnation
        Pod later = cluster.readiness(cluster.pod("steadfast-pe-host-0", "pe-host", peHosts), true);
        register("steadfast-pe-host-0", "uid-of-an-earlier-pod");
        Pod sentinel = readyHost("steadfast-pe-host-1");
        start();

        cluster.readiness(later, false);
        client.pods().resource(later).delete();
        cluster.readiness(sentinel, false); // handled after the others: on one thread, in order

        await().atMost(Duration.ofSeconds(10)).until(() -> !failuresOf("steadfast-pe-host-1").isEmpty());
        assertThat(failuresOf("steadfast-pe-host-0")).isEmpty();
    }

    @Test
    void aHostFailureDeletesTheFailedIncarnationsPodButNeverItsReplacement() {
        Pod first = readyHost("steadfast-pe-host-0");
        Pod other = readyHost("steadfast-pe-host-1");
        KubernetesHostProvisioner provisioner = start();
        client.pods().resource(first).delete();
        Pod replacement = cluster.readiness(cluster.recreate(first, peHosts), true); // as the StatefulSet would

        // the failure of the first incarnation, reported late (a heartbeat timeout), and the other host's
        provisioner.hostFailed(new FailedHost(new HostId("steadfast-pe-host-0"), HostKind.PE,
                first.getMetadata().getUid(), DetectionCause.HEARTBEAT_TIMEOUT));
        provisioner.hostFailed(new FailedHost(new HostId("steadfast-pe-host-1"), HostKind.PE,
                other.getMetadata().getUid(), DetectionCause.HEARTBEAT_TIMEOUT));

        await("the other failed pod deleted").atMost(Duration.ofSeconds(10))
                .until(() -> cluster.current("steadfast-pe-host-1") == null);
        assertThat(cluster.current("steadfast-pe-host-0").getMetadata().getUid())
                .isEqualTo(replacement.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
    }

    @Test
    void aHostThatRejoinedKeepsItsPod() {
        Pod pod = readyHost("steadfast-pe-host-0");
        Pod other = readyHost("steadfast-pe-host-1");
        KubernetesHostProvisioner provisioner = start();

        // its container restarted in the same pod and registered again: the process lives, the pod stays
        provisioner.hostFailed(new FailedHost(new HostId("steadfast-pe-host-0"), HostKind.PE,
                pod.getMetadata().getUid(), DetectionCause.HOST_REJOINED));
        provisioner.hostFailed(new FailedHost(new HostId("steadfast-pe-host-1"), HostKind.PE,
                other.getMetadata().getUid(), DetectionCause.DATA_PLANE_DISCONNECT));

        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.current("steadfast-pe-host-1") == null);
        assertThat(cluster.current("steadfast-pe-host-0")).isNotNull();
    }

    @Test
    void aPodOfAnotherOwnerOrReleaseIsNeverActedOn() {
        StatefulSet foreign = cluster.statefulSet("someone-elses", 1);
        // the name of ours, but not its uid: a StatefulSet of that name since deleted, or one of another install
        StatefulSet impostor = new io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder().withNewMetadata()
                .withName(PE_SET).withUid("11111111-2222-3333-4444-555555555555").endMetadata().build();
        List<Pod> others = List.of(
                cluster.readiness(cluster.pod("steadfast-pe-host-0", "pe-host", foreign), true),
                cluster.readiness(cluster.pod("steadfast-pe-host-1", "pe-host", peHosts, "other"), true),
                cluster.readiness(cluster.pod("steadfast-pe-host-3", "pe-host", impostor), true));
        others.forEach(pod -> register(pod.getMetadata().getName(), pod.getMetadata().getUid()));
        Pod ours = readyHost("steadfast-pe-host-2");
        start();

        for (Pod pod : others) {
            cluster.readiness(pod, false);
            HostId id = new HostId(pod.getMetadata().getName());
            detector.declareDead(id, hosts.find(id).orElseThrow().lastHeartbeat(), DetectionCause.HEARTBEAT_TIMEOUT,
                    "test");
        }
        cluster.readiness(ours, false); // handled after the others: on one thread, in order

        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.current("steadfast-pe-host-2") == null);
        for (Pod pod : others) {
            assertThat(failuresOf(pod.getMetadata().getName())).containsExactly(DetectionCause.HEARTBEAT_TIMEOUT);
            assertThat(cluster.current(pod.getMetadata().getName())).as(pod.getMetadata().getName()).isNotNull();
        }
    }

    @Test
    void afterARestartItDeletesNoHealthyPodWhileHostsReRegister() {
        Pod a = cluster.readiness(cluster.pod("steadfast-pe-host-0", "pe-host", peHosts), true);
        Pod b = cluster.readiness(cluster.pod("steadfast-pe-host-1", "pe-host", peHosts), true);
        Pod c = cluster.readiness(cluster.pod("steadfast-pe-host-2", "pe-host", peHosts), true);
        // a restarted router: an empty registry; the hosts re-register one by one, one only after a while
        KubernetesHostProvisioner provisioner = start(3, Duration.ofSeconds(2), Duration.ZERO);
        register("steadfast-pe-host-0", a.getMetadata().getUid());
        register("steadfast-pe-host-1", b.getMetadata().getUid());
        long reconciled = Instant.now().plusSeconds(1).toEpochMilli();
        await().until(() -> System.currentTimeMillis() > reconciled); // several reconciliations (every 100 ms)
        register("steadfast-pe-host-2", c.getMetadata().getUid());

        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> List.of(a, b, c).stream()
                .allMatch(pod -> pod.getMetadata().getUid().equals(cluster.current(pod.getMetadata().getName())
                        .getMetadata().getUid())));
        assertThat(detector.failures()).isEmpty();
        assertThat(provisioner.access().denials()).isEmpty();
        assertThat(cluster.replicas(PE_SET)).isEqualTo(3);
    }

    @Test
    void aFailedHostsPodStuckTerminatingIsForceDeletedAfterTheGrace() throws InterruptedException {
        readyHost("steadfast-pe-host-0");
        // what a pod on a lost node looks like: deleted a while ago and still there (a finalizer keeps it in the mock
        // server, which would otherwise remove it at once; no kubelet confirms its end)
        client.pods().resource(new PodBuilder(cluster.current("steadfast-pe-host-0")).editMetadata()
                .withDeletionTimestamp(Instant.now().minusSeconds(60).toString()).withDeletionGracePeriodSeconds(30L)
                .withFinalizers("test/lost-node").endMetadata().build()).update();
        Pod healthy = readyHost("steadfast-pe-host-1");
        start(3, Duration.ZERO, Duration.ofSeconds(10));

        await().atMost(Duration.ofSeconds(10)).until(() -> failuresOf("steadfast-pe-host-0"),
                causes -> causes.equals(List.of(DetectionCause.POD_DELETED)));
        List<String> deletions = new ArrayList<>();
        await("force-deleted").atMost(Duration.ofSeconds(10)).until(() -> {
            for (var request = server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS); request != null;
                 request = server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (request.getMethod().equals("DELETE")) {
                    deletions.add(request.getPath() + " " + request.getBody().readUtf8());
                }
            }
            return !deletions.isEmpty();
        });
        assertThat(deletions).singleElement().asString().startsWith("/api/v1/namespaces/test/pods/steadfast-pe-host-0")
                .contains("\"gracePeriodSeconds\":0");
        assertThat(cluster.current("steadfast-pe-host-1").getMetadata().getUid())
                .isEqualTo(healthy.getMetadata().getUid());
    }

    @Test
    void aFailedVotersPodIsDeletedAndTheVoterStatefulSetScaledToItsTarget() {
        StatefulSet voters = cluster.statefulSet("steadfast-voter", 1);
        Pod voter = cluster.readiness(cluster.pod("steadfast-voter-0", "voter", voters), true);
        hosts.register(new HostId("steadfast-voter-0"), HostKind.VOTER, URI.create("http://v"), "tcp://v:1", "s1",
                voter.getMetadata().getUid(), clock.instant());
        start(3, 2, Duration.ZERO, Duration.ofSeconds(30));

        cluster.readiness(voter, false);

        await().atMost(Duration.ofSeconds(10)).until(() -> failuresOf("steadfast-voter-0"),
                causes -> causes.equals(List.of(DetectionCause.POD_NOT_READY)));
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.current("steadfast-voter-0") == null
                && cluster.replicas("steadfast-voter") == 2);
    }

    @Test
    void neverScalesDown() {
        client.apps().statefulSets().withName(PE_SET).scale(5);
        readyHost("steadfast-pe-host-0");
        start(3, Duration.ZERO, Duration.ofSeconds(30));

        detector.declareDead(new HostId("steadfast-pe-host-0"), hosts.find(new HostId("steadfast-pe-host-0"))
                .orElseThrow().lastHeartbeat(), DetectionCause.HEARTBEAT_TIMEOUT, "test");

        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.current("steadfast-pe-host-0") == null);
        assertThat(cluster.replicas(PE_SET)).isEqualTo(5);
    }
}
