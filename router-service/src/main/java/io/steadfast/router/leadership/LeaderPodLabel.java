package io.steadfast.router.leadership;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The label {@value #LABEL}={@value #LEADER} on the leading router's pod, which the router Service selects: the one
 * URL of the Service reaches the leader alone. A router takes it off its own pod when it starts (a router that halted
 * and was restarted in the same pod stands by now) and, once it leads and serves, takes it off every other pod and
 * puts it on its own. Needs {@code list} and {@code patch} on pods.
 */
public final class LeaderPodLabel {

    public static final String LABEL = "steadfast.io/router-role";
    public static final String LEADER = "leader";

    private static final Logger LOG = LoggerFactory.getLogger(LeaderPodLabel.class);

    private final KubernetesClient client;
    private final String namespace;
    private final String pod;

    public LeaderPodLabel(KubernetesClient client, String namespace, String pod) {
        this.client = client;
        this.namespace = namespace;
        this.pod = pod;
    }

    /** Takes the label off this router's pod: it stands by. */
    public void standBy() {
        try {
            unlabel(pod);
        } catch (KubernetesClientException e) {
            LOG.error("Router pod {}/{} could not drop its label {}: {}. If it has it, the router Service may send"
                    + " requests to this standby, which answers 503 naming the leader; grant the router's Role"
                    + " patch on pods", namespace, pod, LABEL, e.getMessage());
        }
    }

    /** Moves the label to this router's pod: it leads and serves. */
    public void lead() {
        try {
            for (Pod other : client.pods().inNamespace(namespace).withLabel(LABEL, LEADER).list().getItems()) {
                if (!other.getMetadata().getName().equals(pod)) {
                    unlabel(other.getMetadata().getName());
                }
            }
            client.pods().inNamespace(namespace).withName(pod).edit(current -> new PodBuilder(current)
                    .editMetadata().addToLabels(LABEL, LEADER).endMetadata().build());
            LOG.info("Router pod {}/{} is labelled {}={}: the router Service routes to it", namespace, pod, LABEL,
                    LEADER);
        } catch (KubernetesClientException e) {
            LOG.error("Router pod {}/{} leads but could not take the label {}={} ({}): the router Service does not"
                    + " route to it, so hosts that know the router by the Service cannot reach it. Grant the router's"
                    + " Role list and patch on pods", namespace, pod, LABEL, LEADER, e.getMessage());
        }
    }

    private void unlabel(String name) {
        Pod current = client.pods().inNamespace(namespace).withName(name).get();
        if (current != null && current.getMetadata().getLabels() != null
                && current.getMetadata().getLabels().containsKey(LABEL)) {
            client.pods().inNamespace(namespace).withName(name).edit(p -> new PodBuilder(p).editMetadata()
                    .removeFromLabels(LABEL).endMetadata().build());
        }
    }
}
