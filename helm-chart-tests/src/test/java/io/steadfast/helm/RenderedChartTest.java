package io.steadfast.helm;

import static io.steadfast.helm.ChartValues.nameOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.steadfast.helm.RenderedManifests.PodOf;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code helm template} with the default and with non-default values: every object parses into the Kubernetes
 * model with no unknown field (that happens in {@link RenderedManifests#parse}), and carries what the chart
 * promises.
 */
class RenderedChartTest {

    /** The Spring Boot services: probes on the actuator's groups, settings from their ConfigMap. */
    private static final Set<String> SERVICES = Set.of("router", "checkpoint-service", "pe-host", "voter",
            "ops-dashboard");
    private static final Set<String> COMPONENTS = Set.of("router", "checkpoint-service", "pe-host", "voter",
            "ops-dashboard", "mongodb", "test");

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void rendersEveryComponentAsKnownKindsWithoutUnknownFields(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);

        assertThat(rendered.all()).extracting(RenderedManifests::describe).contains(
                "Deployment " + nameOf("router"), "Service " + nameOf("router"), "Role " + nameOf("router"),
                "Deployment " + nameOf("checkpoint-service"), "StatefulSet " + nameOf("pe-host"),
                "StatefulSet " + nameOf("voter"), "Deployment " + nameOf("ops-dashboard"),
                "Pod " + nameOf("test-word-count"));
        assertThat(rendered.ofKind(StatefulSet.class).stream().anyMatch(s -> s.getMetadata().getName()
                .equals(nameOf("mongodb")))).isEqualTo(!values.externalMongoDb);
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void labelsEveryObjectWithNameInstanceComponentAndChart(ChartValues values) {
        for (HasMetadata object : Rendered.with(values).all()) {
            Map<String, String> labels = object.getMetadata().getLabels();
            assertThat(labels).as(RenderedManifests.describe(object))
                    .containsEntry("app.kubernetes.io/name", "steadfast")
                    .containsEntry("app.kubernetes.io/instance", ChartValues.RELEASE)
                    .containsEntry("app.kubernetes.io/managed-by", "Helm")
                    .containsKey("helm.sh/chart");
            assertThat(labels.get("app.kubernetes.io/component")).as(RenderedManifests.describe(object))
                    .isIn(COMPONENTS);
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void givesEveryContainerResourcesAndNonRootReadOnlySecurity(ChartValues values) {
        List<PodOf> pods = Rendered.with(values).pods();
        assertThat(pods).isNotEmpty();
        for (PodOf pod : pods) {
            assertThat(pod.spec().getSecurityContext().getRunAsNonRoot()).as(pod + " pod runAsNonRoot").isTrue();
            for (Container container : containersOf(pod)) {
                String where = pod + ", container " + container.getName();
                assertThat(container.getResources().getRequests()).as(where + " requests").containsKeys("cpu", "memory");
                assertThat(container.getResources().getLimits()).as(where + " limits").containsKeys("cpu", "memory");
                SecurityContext security = container.getSecurityContext();
                assertThat(security).as(where + " securityContext").isNotNull();
                assertThat(security.getRunAsNonRoot()).as(where + " runAsNonRoot").isTrue();
                assertThat(security.getRunAsUser()).as(where + " runAsUser").isNotNull().isPositive();
                assertThat(security.getReadOnlyRootFilesystem()).as(where + " readOnlyRootFilesystem").isTrue();
                assertThat(security.getAllowPrivilegeEscalation()).as(where + " allowPrivilegeEscalation").isFalse();
                assertThat(security.getCapabilities().getDrop()).as(where + " capabilities.drop").containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).as(where + " capabilities.add").isNullOrEmpty();
                assertThat(security.getSeccompProfile().getType()).as(where + " seccomp").isEqualTo("RuntimeDefault");
                assertThat(mountedEmptyDir(pod, container, "/tmp")).as(where + " /tmp is an emptyDir").isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void probesEveryContainerButHelmTestHook(ChartValues values) {
        for (PodOf pod : Rendered.with(values).pods()) {
            if (pod.isHelmTestHook()) {
                continue;
            }
            for (Container container : pod.spec().getContainers()) {
                String where = pod + ", container " + container.getName();
                assertThat(container.getLivenessProbe()).as(where + " livenessProbe").isNotNull();
                assertThat(container.getReadinessProbe()).as(where + " readinessProbe").isNotNull();
                if (SERVICES.contains(pod.component())) {
                    assertThat(httpPath(container.getLivenessProbe())).as(where).isEqualTo("/actuator/health/liveness");
                    assertThat(httpPath(container.getReadinessProbe())).as(where).isEqualTo("/actuator/health/readiness");
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void passesPodIdentityAndConfigMapToEveryService(ChartValues values) {
        List<PodOf> services = Rendered.with(values).pods().stream()
                .filter(pod -> SERVICES.contains(pod.component())).toList();
        assertThat(services).extracting(PodOf::component).containsExactlyInAnyOrderElementsOf(SERVICES);
        for (PodOf pod : services) {
            Container container = pod.spec().getContainers().get(0);
            assertThat(fieldRefs(container)).as(pod + " downward API").containsAllEntriesOf(Map.of(
                    "POD_NAME", "metadata.name", "POD_IP", "status.podIP", "POD_NAMESPACE", "metadata.namespace",
                    "POD_UID", "metadata.uid"));
            assertThat(container.getEnv()).as(pod.toString()).anySatisfy(env -> {
                assertThat(env.getName()).isEqualTo("SPRING_CONFIG_ADDITIONAL_LOCATION");
                assertThat(env.getValue()).isEqualTo("file:/etc/steadfast/");
            });
            VolumeMount config = container.getVolumeMounts().stream()
                    .filter(mount -> mount.getMountPath().equals("/etc/steadfast")).findFirst().orElseThrow();
            assertThat(config.getReadOnly()).as(pod + " config mount read-only").isTrue();
            assertThat(volume(pod, config.getName()).getConfigMap().getName()).isEqualTo(nameOf(pod.component()));
            assertThat(container.getImage()).as(pod.toString()).endsWith(
                    values == ChartValues.DEFAULTS ? ":0.1.0-SNAPSHOT" : ":1.2.3");
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void writesContractSettingsIntoEveryApplicationYaml(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        Map<String, Map<String, String>> expected = Map.of(
                "router", Contract.router(values),
                "pe-host", Contract.host(values, 8081),
                "voter", Contract.host(values, 8083),
                "checkpoint-service", Contract.checkpointService(values),
                "ops-dashboard", Contract.opsDashboard());
        List<ConfigMap> configMaps = rendered.ofKind(ConfigMap.class);
        assertThat(configMaps).extracting(c -> c.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(
                expected.keySet().stream().map(ChartValues::nameOf).toList());
        expected.forEach((component, settings) -> assertThat(
                ApplicationYaml.settings(rendered.named(ConfigMap.class, nameOf(component))))
                .as("application.yaml of " + component).containsAllEntriesOf(settings));
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void grantsRouterExactlyTheRulesItNeedsAndNothingToOthers(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        assertThat(rendered.ofKind(ClusterRole.class)).isEmpty();
        assertThat(rendered.ofKind(ClusterRoleBinding.class)).isEmpty();
        assertThat(rendered.ofKind(Role.class)).hasSize(1);

        Role role = rendered.named(Role.class, nameOf("router"));

        assertThat(role.getRules()).map(RenderedChartTest::rule).containsExactlyInAnyOrder(
                "[] pods: get list watch delete patch",
                "[apps] statefulsets: get list watch",
                "[apps] statefulsets/scale: get update patch",
                "[coordination.k8s.io] leases: get create update");
        RoleBinding binding = rendered.named(RoleBinding.class, nameOf("router"));
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(nameOf("router"));
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo(nameOf("router"));
            assertThat(subject.getNamespace()).isEqualTo(ChartValues.NAMESPACE);
        });
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void mountsServiceAccountTokenInRouterPodsOnly(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);
        for (PodOf pod : rendered.pods()) {
            boolean router = "router".equals(pod.component());
            assertThat(pod.spec().getAutomountServiceAccountToken()).as(pod + " automountServiceAccountToken")
                    .isEqualTo(router);
            if (router) {
                assertThat(pod.spec().getServiceAccountName()).isEqualTo(nameOf("router"));
            }
        }
        for (ServiceAccount account : rendered.ofKind(ServiceAccount.class)) {
            assertThat(account.getAutomountServiceAccountToken()).as(RenderedManifests.describe(account))
                    .isEqualTo(account.getMetadata().getName().equals(nameOf("router")));
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void routesRouterServiceToLeaderOnly(ChartValues values) {
        Service service = Rendered.with(values).named(Service.class, nameOf("router"));

        assertThat(service.getSpec().getSelector()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app.kubernetes.io/name", "steadfast",
                "app.kubernetes.io/instance", ChartValues.RELEASE,
                "app.kubernetes.io/component", "router",
                "steadfast.io/router-role", "leader"));
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> assertThat(port.getPort()).isEqualTo(8080));
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void runsRoutersHostsAndVotersAsConfigured(ChartValues values) {
        RenderedManifests rendered = Rendered.with(values);

        assertThat(rendered.named(Deployment.class, nameOf("router")).getSpec().getReplicas()).isEqualTo(values.routers);
        StatefulSet hosts = rendered.named(StatefulSet.class, nameOf("pe-host"));
        assertThat(hosts.getSpec().getReplicas()).isEqualTo(values.activeHosts + values.standbyHosts);
        assertThat(hosts.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        assertThat(hosts.getSpec().getServiceName()).isEqualTo(nameOf("pe-host"));
        StatefulSet voters = rendered.named(StatefulSet.class, nameOf("voter"));
        assertThat(voters.getSpec().getReplicas()).isEqualTo(values.voters);
        assertThat(voters.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
        for (StatefulSet set : List.of(hosts, voters)) {
            assertThat(set.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts())
                    .anySatisfy(port -> {
                        assertThat(port.getName()).isEqualTo("data");
                        assertThat(port.getContainerPort()).isEqualTo(values.dataPort);
                    });
        }
    }

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void rendersHelmTestHookThatChecksWordCountThroughRouter(ChartValues values) throws Exception {
        PodOf hook = Rendered.with(values).pods().stream().filter(PodOf::isHelmTestHook).findFirst().orElseThrow();
        Container container = hook.spec().getContainers().get(0);
        Map<String, String> env = plainEnv(container);

        assertThat(hook.spec().getRestartPolicy()).isEqualTo("Never");
        assertThat(env).containsEntry("ROUTER_URL", "http://" + nameOf("router") + ":8080")
                .containsEntry("MIN_HOSTS", String.valueOf(values.activeHosts))
                .containsKeys("COUNT", "KEYS", "TIMEOUT_SECONDS");
        assertThat(container.getArgs()).singleElement().isEqualTo(java.nio.file.Files.readString(
                Helm.CHART.resolve("files/check-word-count.py")));
    }

    private static List<Container> containersOf(PodOf pod) {
        return Stream.concat(pod.spec().getContainers().stream(),
                Optional.ofNullable(pod.spec().getInitContainers()).orElse(List.of()).stream()).toList();
    }

    private static boolean mountedEmptyDir(PodOf pod, Container container, String path) {
        return container.getVolumeMounts().stream().filter(mount -> mount.getMountPath().equals(path))
                .anyMatch(mount -> volume(pod, mount.getName()).getEmptyDir() != null);
    }

    private static Volume volume(PodOf pod, String name) {
        return pod.spec().getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(pod + " mounts volume " + name + ", which it does not define"));
    }

    private static String httpPath(Probe probe) {
        return probe.getHttpGet() == null ? null : probe.getHttpGet().getPath();
    }

    private static Map<String, String> fieldRefs(Container container) {
        return container.getEnv().stream().filter(env -> env.getValueFrom() != null
                        && env.getValueFrom().getFieldRef() != null)
                .collect(java.util.stream.Collectors.toMap(EnvVar::getName,
                        env -> env.getValueFrom().getFieldRef().getFieldPath()));
    }

    private static Map<String, String> plainEnv(Container container) {
        return container.getEnv().stream().filter(env -> env.getValue() != null)
                .collect(java.util.stream.Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    /** A rule as one line: its API groups, resources and verbs. */
    private static String rule(PolicyRule rule) {
        return rule.getApiGroups() + " " + String.join(" ", rule.getResources()) + ": "
                + String.join(" ", Objects.requireNonNullElse(rule.getVerbs(), List.of()));
    }
}
