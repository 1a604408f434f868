package io.steadfast.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.steadfast.helm.RenderedManifests.PodOf;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The NetworkPolicies open the hosts' and voters' data plane to hosts and voters only. */
class NetworkPolicyTest {

    private static final List<String> HOST_KINDS = List.of("pe-host", "voter");

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void opensDataPlaneOnlyBetweenHostsAndVoters(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        for (String kind : HOST_KINDS) {
            List<NetworkPolicyIngressRule> dataRules = rulesSelecting(rendered, rendered.podOf(kind)).stream()
                    .filter(rule -> opensPort(rule, "data", values.dataPort)).toList();

            assertThat(dataRules).as("rules that open the data port of " + kind).isNotEmpty();
            List<NetworkPolicyPeer> peers = dataRules.stream().flatMap(rule -> {
                assertThat(rule.getFrom()).as("a rule opening the data port of " + kind + " to everyone").isNotEmpty();
                return rule.getFrom().stream();
            }).toList();
            for (NetworkPolicyPeer peer : peers) {
                assertThat(peer.getIpBlock()).as("data port of " + kind + " opened to an IP block").isNull();
                assertThat(peer.getNamespaceSelector()).as("data port of " + kind + " opened to a namespace").isNull();
                assertThat(peer.getPodSelector().getMatchLabels())
                        .containsEntry("app.kubernetes.io/instance", ChartValues.RELEASE);
            }
            assertThat(peers).extracting(peer -> peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/component"))
                    .as("who reaches the data port of " + kind).containsExactlyInAnyOrderElementsOf(HOST_KINDS);
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void opensHostControlPortToRouterHostsAndVotersOnly(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        for (String kind : HOST_KINDS) {
            List<NetworkPolicyIngressRule> rules = rulesSelecting(rendered, rendered.podOf(kind));

            assertThat(rules).allSatisfy(rule -> assertThat(rule.getPorts()).as("a rule open on every port").isNotEmpty());
            assertThat(rules.stream().filter(rule -> opensPort(rule, "http", -1)).flatMap(rule -> rule.getFrom().stream()))
                    .extracting(peer -> peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/component"))
                    .containsExactlyInAnyOrder("router", "pe-host", "voter");
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void letsHelmTestHookReachRouter(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        assertThat(rulesSelecting(rendered, rendered.podOf("router")).stream()
                .flatMap(rule -> rule.getFrom().stream()).filter(peer -> peer.getPodSelector() != null)
                .map(peer -> peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/component")))
                .contains("test", "ops-dashboard", "pe-host", "voter");
    }

    /** The ingress rules of every NetworkPolicy that selects the pod. */
    private static List<NetworkPolicyIngressRule> rulesSelecting(RenderedManifests rendered, PodOf pod) {
        return rendered.ofKind(NetworkPolicy.class).stream()
                .filter(policy -> selects(policy.getSpec().getPodSelector(), pod.metadata().getLabels()))
                .flatMap(policy -> policy.getSpec().getIngress().stream()).toList();
    }

    private static boolean opensPort(NetworkPolicyIngressRule rule, String name, int number) {
        if (rule.getPorts() == null || rule.getPorts().isEmpty()) {
            return true;
        }
        return rule.getPorts().stream().map(NetworkPolicyPort::getPort).filter(Objects::nonNull)
                .anyMatch(port -> name.equals(port.getStrVal()) || Objects.equals(port.getIntVal(), number));
    }

    /** Whether a label selector (matchLabels, and matchExpressions with In) selects pods with these labels. */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        boolean byLabels = Objects.requireNonNullElse(selector.getMatchLabels(), Map.<String, String>of()).entrySet()
                .stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        boolean byExpressions = Objects.requireNonNullElse(selector.getMatchExpressions(),
                List.<LabelSelectorRequirement>of()).stream().allMatch(requirement -> {
                    assertThat(requirement.getOperator()).as("selector operators this test understands").isEqualTo("In");
                    return requirement.getValues().contains(labels.get(requirement.getKey()));
                });
        return byLabels && byExpressions;
    }
}
