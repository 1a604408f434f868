package io.steadfast.router.scheduling;

import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostAdmission;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link HostProvisioner} with the application and tells it of every host the failure detector declares DEAD,
 * whatever the evidence (heartbeats, data-plane reports, pod events), with the failed host as it was registered, and
 * has the registrations of the incarnations it knows gone refused.
 * Started with the application by default; whoever decides that this router is the active one (leader election) may
 * {@link #stop()} and {@link #start()} it instead.
 */
public final class HostProvisioning implements SmartLifecycle {

    private final HostProvisioner provisioner;

    public HostProvisioning(HostProvisioner provisioner, HeartbeatFailureDetector detector, HostAdmission admission) {
        this.provisioner = provisioner;
        admission.refuseRetiredInstances(provisioner::isRetired);
        // on the detector's sweeping thread, before the host can register again: the registry still holds the failed
        // incarnation; hostFailed hands off and returns
        detector.onFailure(failure -> detector.host(failure.host()).ifPresent(host -> {
            if (provisioner.isRunning()) {
                provisioner.hostFailed(new FailedHost(host.id(), host.kind(), host.instance(), failure.cause()));
            }
        }));
    }

    @Override
    public void start() {
        provisioner.start();
    }

    @Override
    public void stop() {
        provisioner.stop();
    }

    @Override
    public boolean isRunning() {
        return provisioner.isRunning();
    }
}
