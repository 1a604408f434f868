package io.steadfast.helm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** values.schema.json stops a bad value before anything is rendered, naming the value. */
class ValuesSchemaTest {

    @ParameterizedTest(name = "--set {0}")
    @CsvSource(delimiter = '|', value = {
            "hosts.active=-1                         | /hosts/active",
            "hosts.standby=-1                        | /hosts/standby",
            "router.replicas=0                       | /router/replicas",
            "router.leaderElection.leaseDuration=4   | /router/leaderElection/leaseDuration",
            "router.resources.limits.memory=lots     | /router/resources/limits/memory",
            "mongodb.enabled=false                   | /mongodb/external/existingSecret",
            "opsDashboard.ingress.pathType=Anything  | /opsDashboard/ingress/pathType",
            "hostz.active=3                          | hostz"})
    void rejectsBadValueNamingIt(String setting, String named) {
        Helm.Result result = Helm.require().run("template", ChartValues.RELEASE, Helm.CHART.toString(),
                "--set", setting);

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.output()).as(result.describe()).contains("schema").contains(named);
    }

    @ParameterizedTest(name = "--set {0}")
    @CsvSource({"hosts.standby=0", "voters.replicas=0", "networkPolicy.enabled=false", "mongodb.persistence.enabled=false"})
    void acceptsGoodNonDefaultValue(String setting) {
        Helm.Result result = Helm.require().run("template", ChartValues.RELEASE, Helm.CHART.toString(),
                "--set", setting);

        assertThat(result.exitCode()).as(result.describe()).isZero();
        RenderedManifests.parse(result.output());
    }
}
