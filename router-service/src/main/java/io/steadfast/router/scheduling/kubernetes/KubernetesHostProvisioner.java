package io.steadfast.router.scheduling.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostStatus;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.scheduling.FailedHost;
import io.steadfast.router.scheduling.HostProvisioner;
import io.steadfast.router.scheduling.SchedulingProperties;
import io.steadfast.router.scheduling.SchedulingThread;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the hosts' pods on Kubernetes. It watches the pods of the router's hosts ({@link HostPods}: by label, and
 * acting only on those its StatefulSets own) and reports a pod that is deleted, evicted, or not ready after it had
 * been ready to the failure detector, beside heartbeats and data-plane reports (whichever comes first), for the
 * pod's registered incarnation only: the host registered with the pod's uid as its instance, so a pod the StatefulSet
 * recreated under the same name is never taken for the failed one. On every failure the detector declares it deletes
 * the failed incarnation's pod if it still exists (so that the StatefulSet recreates it and the new host joins as a
 * standby) and keeps each StatefulSet's replicas at least at its target ({@link StatefulSetReplicas}); a failed pod
 * stuck Terminating (a lost node) is force-deleted after {@code force-delete-after}. After a start (a router restart,
 * or this router becoming the active one) it deletes nothing for the hosts' restart grace, while they re-register;
 * it never deletes a pod whose host is LIVE. Every call to the API runs on one thread,
 * {@code steadfast-router-kubernetes}; the watch's callbacks hand off to it.
 */
public final class KubernetesHostProvisioner implements HostProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesHostProvisioner.class);
    /** The causes after which the failed incarnation's process is gone or must be: its pod is deleted. */
    private static final Set<DetectionCause> HOST_GONE = EnumSet.of(DetectionCause.HEARTBEAT_TIMEOUT,
            DetectionCause.DATA_PLANE_DISCONNECT, DetectionCause.POD_DELETED, DetectionCause.POD_EVICTED,
            DetectionCause.POD_NOT_READY);
    /**
     * Kubernetes times have a second's precision: a host that registered more than this after its pod turned not
     * ready is a later process in the same pod (its container restarted), not the one that failed.
     */
    private static final Duration TIMESTAMP_PRECISION = Duration.ofSeconds(1);
    private static final int DELETE_ATTEMPTS = 3;
    private static final int CONFLICT = 409;

    private final KubernetesClient client;
    private final KubernetesAccess access;
    private final HostPods pods;
    private final StatefulSetReplicas replicas;
    private final HeartbeatFailureDetector detector;
    private final Predicate<HostId> failureBeingHandled;
    private final Clock clock;
    private final SchedulingProperties.Kubernetes settings;
    private final Map<HostKind, Integer> targets;
    private final Duration restartGrace;
    /** The uids of pods seen Ready: only their not-ready is a failure (a starting pod is not failed). */
    private final Set<String> everReady = ConcurrentHashMap.newKeySet();
    /** The uids of pods whose host was declared DEAD. */
    private final Set<String> failedInstances = ConcurrentHashMap.newKeySet();
    /** The uids of pods known deleted or being deleted: their hosts' registrations are refused. */
    private final Set<String> retired = ConcurrentHashMap.newKeySet();
    /** The uids of pods force-deleted: once is enough (a finalizer may keep one a while longer). */
    private final Set<String> forceDeleted = ConcurrentHashMap.newKeySet();
    private final SchedulingThread thread;
    private volatile @Nullable SharedIndexInformer<Pod> informer;

    /**
     * @param failureBeingHandled whether a detected failure of the host is still queued or being recovered
     * @param restartGrace how long after a start hosts may take to re-register: nothing is deleted before
     */
    public KubernetesHostProvisioner(KubernetesClient client, KubernetesAccess access, SchedulingProperties settings,
                                     HeartbeatFailureDetector detector, Predicate<HostId> failureBeingHandled,
                                     Clock clock, Duration restartGrace) {
        this.client = client;
        this.access = access;
        this.settings = settings.kubernetes();
        this.pods = new HostPods(client, access, this.settings.instance(), this.settings.peHostStatefulSet(),
                this.settings.voterStatefulSet());
        this.replicas = new StatefulSetReplicas(client, access);
        this.detector = detector;
        this.failureBeingHandled = failureBeingHandled;
        this.clock = clock;
        this.targets = Map.of(HostKind.PE, settings.peHosts(), HostKind.VOTER, settings.voters());
        this.restartGrace = restartGrace;
        this.thread = new SchedulingThread("steadfast-router-kubernetes", clock);
    }

    @Override
    public synchronized void start() {
        if (informer != null) {
            return;
        }
        SharedIndexInformer<Pod> watch = client.pods().inNamespace(access.namespace()).withLabels(pods.selector())
                .runnableInformer(0);
        watch.exceptionHandler((started, failure) -> {
            Optional<KubernetesClientException> forbidden = KubernetesAccess.forbidden(failure);
            if (forbidden.isPresent()) {
                access.denied("list and watch", "pods", forbidden.get().getMessage());
            } else {
                LOG.warn("Watching the hosts' pods in namespace {} failed ({}); retrying", access.namespace(),
                        failure.toString());
            }
            return true;
        });
        watch.addEventHandler(new PodEvents());
        informer = watch;
        thread.start(settings.reconcileInterval(), () -> guarded(this::reconcile));
        watch.start();
        LOG.info("Host scheduling on Kubernetes started: watching the pods labelled {} in namespace {}; targets {} PE"
                + " hosts ({}), {} voters ({})", pods.selector(), access.namespace(), targets.get(HostKind.PE),
                settings.peHostStatefulSet(), targets.get(HostKind.VOTER), settings.voterStatefulSet());
    }

    @Override
    public synchronized void stop() {
        SharedIndexInformer<Pod> watch = informer;
        informer = null;
        if (watch != null) {
            watch.stop();
        }
        if (thread.stop()) {
            LOG.info("Host scheduling on Kubernetes stopped");
        }
    }

    @Override
    public boolean isRunning() {
        return thread.isRunning();
    }

    /** Its calls to the API, and those refused. */
    public KubernetesAccess access() {
        return access;
    }

    /** Whether the pod watch is connected. */
    public boolean isWatchingPods() {
        SharedIndexInformer<Pod> watch = informer;
        return watch != null && watch.isWatching();
    }

    @Override
    public boolean isRetired(HostId id, String instance) {
        return retired.contains(instance);
    }

    @Override
    public void hostFailed(FailedHost host) {
        if (host.instance() != null && HOST_GONE.contains(host.cause())) {
            failedInstances.add(host.instance());
        }
        onThread(() -> {
            if (HOST_GONE.contains(host.cause())) {
                deleteFailedPod(host);
            }
            ensureReplicas();
        });
    }

    /**
     * The failed incarnation's pod, if it still exists under that uid, is deleted: its StatefulSet recreates it. The
     * deletion is conditional on the pod's resource version, so it never hits another pod of that name; a pod that
     * changed meanwhile (its status, most often) is read again, up to {@value #DELETE_ATTEMPTS} times.
     */
    private void deleteFailedPod(FailedHost host) {
        if (host.instance() == null) {
            LOG.info("Host {} failed but registered naming no instance (steadfast.host.instance, the pod uid):"
                    + " its pod, if it has one, is left alone", host.id());
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                deleteFailedPodOnce(host, host.instance());
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != CONFLICT || attempt == DELETE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private void deleteFailedPodOnce(FailedHost host, String instance) {
        Pod pod = access.call("get", "pods", () -> client.pods().inNamespace(access.namespace())
                .withName(host.id().value()).get());
        if (pod == null || !instance.equals(HostPods.uid(pod))) {
            retired.add(instance);
            LOG.info("Host {} failed ({}); its pod {} is gone{}", host.id(), host.cause(), instance,
                    pod == null ? "" : " (a new pod " + HostPods.uid(pod) + " has its name: left alone)");
            return;
        }
        if (!pods.owns(pod)) {
            LOG.warn("Host {} failed, but pod {} is not owned by StatefulSet {} of release {}: left alone", host.id(),
                    HostPods.name(pod), pods.statefulSetOf(host.kind()), settings.instance());
            return;
        }
        if (HostPods.terminating(pod)) {
            retired.add(instance);
            return; // being deleted; forceDeleteStuck() follows it
        }
        String resourceVersion = pod.getMetadata().getResourceVersion();
        access.call("delete", "pods", () -> client.pods().inNamespace(access.namespace()).withName(HostPods.name(pod))
                .lockResourceVersion(resourceVersion).delete());
        retired.add(instance);
        LOG.info("Deleted pod {} (uid {}) of failed host {} ({}): its StatefulSet recreates it, and the new host"
                + " joins as a standby", HostPods.name(pod), instance, host.id(), host.cause());
    }

    /**
     * Makes the cluster what it should be, whatever events were missed: judges every pod the watch knows again (a
     * failure seen while its host was not yet registered, or by a watch that reconnected, is acted on now), keeps the
     * replicas, and force-deletes pods stuck Terminating.
     */
    private void reconcile() {
        SharedIndexInformer<Pod> watch = informer;
        if (watch != null && watch.isWatching()) {
            access.succeeded("list and watch", "pods");
        }
        if (watch != null) {
            watch.getStore().list().forEach(pod -> failureOf(pod, false).ifPresent(this::signal));
        }
        ensureReplicas();
        forceDeleteStuck();
    }

    private void ensureReplicas() {
        targets.forEach((kind, target) -> {
            if (target > 0) {
                replicas.ensureAtLeast(pods.statefulSetOf(kind), target);
            }
        });
    }

    /**
     * Force-deletes the router's pods that stay Terminating past their deletion time plus {@code force-delete-after}
     * and whose host is not LIVE under that pod (failed and recovered, or never re-registered after the restart
     * grace), so that the StatefulSet can recreate them: a pod on a lost node never finishes terminating.
     */
    private void forceDeleteStuck() {
        SharedIndexInformer<Pod> watch = informer;
        Instant now = clock.instant();
        if (watch == null || now.isBefore(thread.startedAt().plus(restartGrace))) {
            return;
        }
        for (Pod pod : watch.getStore().list()) {
            if (!HostPods.terminating(pod)) {
                continue;
            }
            Instant deletion = OffsetDateTime.parse(pod.getMetadata().getDeletionTimestamp()).toInstant();
            HostId id = new HostId(HostPods.name(pod));
            String uid = HostPods.uid(pod);
            boolean hostLive = detector.host(id).filter(host -> uid.equals(host.instance()))
                    .filter(host -> detector.statusOf(host) == HostStatus.LIVE).isPresent();
            if (now.isBefore(deletion.plus(settings.forceDeleteAfter())) || hostLive || forceDeleted.contains(uid)
                    || failureBeingHandled.test(id) || !pods.owns(pod)) {
                continue;
            }
            access.call("delete", "pods", () -> client.pods().inNamespace(access.namespace()).withName(id.value())
                    .withGracePeriod(0).delete());
            LOG.warn("Force-deleted pod {} (uid {}{}): Terminating since {}, past {} (its node may be lost), so that"
                    + " its StatefulSet can recreate it; whatever still runs there is fenced", id, uid,
                    failedInstances.contains(uid) ? ", its host failed and was recovered" : "", deletion,
                    settings.forceDeleteAfter());
            failedInstances.remove(uid);
            forceDeleted.add(uid);
        }
    }

    /** What a pod's state says of its host: failed, and why; empty if nothing (or not one of the router's pods). */
    private Optional<PodFailure> failureOf(Pod pod, boolean deleted) {
        if (pods.kindOf(pod).isEmpty() || pod.getMetadata().getUid() == null) {
            return Optional.empty();
        }
        String uid = HostPods.uid(pod);
        String name = "pod " + HostPods.name(pod) + " (uid " + uid + ")";
        if (deleted || HostPods.terminating(pod)) {
            return Optional.of(new PodFailure(pod, DetectionCause.POD_DELETED, name + " was deleted"));
        }
        if (HostPods.evicted(pod)) {
            return Optional.of(new PodFailure(pod, DetectionCause.POD_EVICTED, name + " was evicted: "
                    + pod.getStatus().getMessage()));
        }
        if (!HostPods.ready(pod) && everReady.contains(uid)) {
            String why = HostPods.readyCondition(pod).map(c -> c.getReason() + ": " + c.getMessage())
                    .orElse("no Ready condition");
            return Optional.of(new PodFailure(pod, DetectionCause.POD_NOT_READY, name + " turned not ready after it"
                    + " had been ready (" + why + ")"));
        }
        return Optional.empty();
    }

    /** A pod's state that is evidence its host failed. */
    private record PodFailure(Pod pod, DetectionCause cause, String evidence) {
    }

    /**
     * A pod's state is evidence that its registered host failed: tell the detector, for the registration from that
     * pod only, and whatever heartbeats that process still sends (its pod's state is not refuted by them).
     */
    private void signal(PodFailure failure) {
        Pod pod = failure.pod();
        DetectionCause cause = failure.cause();
        HostId id = new HostId(HostPods.name(pod));
        Optional<RegisteredHost> registered = detector.host(id);
        if (registered.isEmpty() || !HostPods.uid(pod).equals(registered.get().instance())) {
            return; // not registered yet, or registered from another pod of that name
        }
        RegisteredHost host = registered.get();
        if (detector.statusOf(host) != HostStatus.LIVE || !pods.owns(pod)) {
            return;
        }
        if (cause == DetectionCause.POD_NOT_READY && registeredAfterNotReady(host, pod)) {
            return;
        }
        detector.declareDeadWhateverItSends(host, cause, failure.evidence());
    }

    private static boolean registeredAfterNotReady(RegisteredHost host, Pod pod) {
        return HostPods.readyCondition(pod).map(condition -> condition.getLastTransitionTime())
                .map(time -> OffsetDateTime.parse(time).toInstant().plus(TIMESTAMP_PRECISION))
                .filter(host.registeredAt()::isAfter).isPresent();
    }

    private void onThread(Runnable action) {
        thread.execute(() -> guarded(action));
    }

    private void guarded(Runnable action) {
        try {
            action.run();
        } catch (KubernetesClientException e) {
            logFailedCall(e);
        } catch (RuntimeException e) {
            LOG.error("Host scheduling on Kubernetes failed; retried on the next failure or reconciliation", e);
        }
    }

    private void logFailedCall(KubernetesClientException e) {
        if (!thread.isRunning()) {
            LOG.debug("A call to the Kubernetes API ended as host scheduling stopped", e);
        } else if (e.getCode() != 403) { // a 403 is logged once by KubernetesAccess
            LOG.warn("A call to the Kubernetes API failed ({}): {}; retried on the next failure or reconciliation"
                    + " (every {})", e.getCode(), e.getMessage(), settings.reconcileInterval());
        }
    }

    /** The watch's callbacks, on the informer's thread: judge the pod, hand what to do off. */
    private final class PodEvents implements ResourceEventHandler<Pod> {

        @Override
        public void onAdd(Pod pod) {
            observe(pod, false);
        }

        @Override
        public void onUpdate(Pod before, Pod pod) {
            observe(pod, false);
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
            observe(pod, true);
            everReady.remove(HostPods.uid(pod));
            forceDeleted.remove(HostPods.uid(pod));
        }

        private void observe(Pod pod, boolean deleted) {
            if (pods.kindOf(pod).isEmpty() || pod.getMetadata().getUid() == null) {
                return;
            }
            if (HostPods.ready(pod)) {
                everReady.add(HostPods.uid(pod));
            }
            if (deleted || HostPods.terminating(pod)) {
                retired.add(HostPods.uid(pod));
            }
            failureOf(pod, deleted).ifPresent(failure -> onThread(() -> signal(failure)));
        }
    }
}
