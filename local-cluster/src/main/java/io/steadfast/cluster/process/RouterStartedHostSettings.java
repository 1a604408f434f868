package io.steadfast.cluster.process;

import io.steadfast.cluster.RepoLayout;
import io.steadfast.cluster.Service;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The router settings ({@code steadfast.router.scheduling.*}) with which the routers of a local cluster start its
 * hosts themselves: the same jars, JVM arguments, operator jars and host settings as {@link ClusterProcesses} uses.
 */
final class RouterStartedHostSettings {

    private final RepoLayout layout;
    private final Path runDir;
    private final OperatorJars operators;

    RouterStartedHostSettings(RepoLayout layout, Path runDir, OperatorJars operators) {
        this.layout = layout;
        this.runDir = runDir;
        this.operators = operators;
    }

    /**
     * Settings for {@code peHosts} PE hosts and {@code voters} voters, each registering with every router of
     * {@code routerUrls}.
     */
    List<String> settings(int peHosts, int voters, List<URI> routerUrls) {
        String prefix = "--steadfast.router.scheduling.";
        List<String> settings = new ArrayList<>(List.of(prefix + "mode=local", prefix + "pe-hosts=" + peHosts,
                prefix + "voters=" + voters, prefix + "local.pe-host-jar=" + layout.jar(Service.HOST),
                prefix + "local.run-dir=" + runDir, prefix + "local.jvm-args=" + String.join(",", ServiceJvmArgs.HOST),
                prefix + "local.host-settings=--steadfast.host.fault-injection.enabled=true",
                prefix + "local.router-url=" + String.join(",", routerUrls.stream().map(URI::toString).toList())));
        if (voters > 0) {
            settings.add(prefix + "local.voter-jar=" + layout.jar(Service.VOTER));
        }
        if (!operators.jars().isEmpty()) {
            settings.add(prefix + "local.operator-jars=" + String.join(",",
                    operators.jars().stream().map(jar -> jar.toAbsolutePath().toString()).toList()));
        }
        return settings;
    }
}
