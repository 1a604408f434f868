package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ClusterProcesses;
import io.steadfast.protocol.router.HostView;
import io.steadfast.runtime.plan.HostId;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Host scheduling by the router on one machine ({@code steadfast.router.scheduling.mode=local}), with real processes:
 * a checkpoint-service and a router told to keep two PE hosts, from the built pe-host-service jar. The router starts
 * host-1 and host-2; host-1 is crashed (fault injection halts its JVM); the router replaces it with host-3 (a new
 * number, never the failed id); host-2 is frozen (SIGSTOP): the router kills its process and starts host-4; stopped,
 * the router stops the hosts it started. Skipped if the jars are not built.
 */
@Timeout(300)
class RouterStartedHostsIT {

    private static final Duration STARTUP = Duration.ofSeconds(120);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void theRouterKeepsItsHostsReplacesACrashedOneUnderANewIdAndStopsThemWithItself() {
        RepoLayout layout = RepoLayout.fromWorkingDirectory();
        List<Path> missing = layout.missingJars(List.of(Service.CHECKPOINT, Service.ROUTER, Service.HOST));
        assumeThat(missing).as("service jars not built: %s; run %s", missing, RepoLayout.BUILD_COMMAND).isEmpty();
        try (ClusterProcesses processes = new ClusterProcesses(layout, layout.e2eRunDir("router-started-hosts"))) {
            ClusterStartup startup = new ClusterStartup(processes, STARTUP, line -> System.out.println("[e2e] " + line));
            startup.startCheckpointServiceOnFreePort();
            List<String> settings = new ArrayList<>(List.of("--steadfast.router.scheduling.mode=local",
                    "--steadfast.router.scheduling.pe-hosts=2",
                    "--steadfast.router.scheduling.local.pe-host-jar=" + layout.jar(Service.HOST),
                    "--steadfast.router.scheduling.local.run-dir=" + processes.runDir(),
                    "--steadfast.router.scheduling.local.host-settings=--steadfast.host.fault-injection.enabled=true"));
            if (!processes.operatorJars().jars().isEmpty()) {
                settings.add("--steadfast.router.scheduling.local.operator-jars=" + processes.operatorJars().jars()
                        .stream().map(Path::toString).collect(Collectors.joining(",")));
            }
            RouterClient router = startup.startRouterOnFreePort(settings);

            awaitLive(router, Set.of(new HostId("host-1"), new HostId("host-2")));
            URI crashed = controlUrl(router, "host-1");
            post(crashed.resolve("/api/v1/fault/kill"));

            awaitLive(router, Set.of(new HostId("host-2"), new HostId("host-3")));
            assertThat(refuses(crashed)).as("host-1's process is gone").isTrue();

            ProcessHandle frozen = hostProcess(router, "host-2");
            signal("STOP", frozen); // silent but alive, as a host in a long pause: the router kills it, replaces it
            awaitLive(router, Set.of(new HostId("host-3"), new HostId("host-4")));
            await("the frozen host-2 killed").atMost(Duration.ofSeconds(20)).until(() -> !frozen.isAlive());
            List<URI> started = List.of(controlUrl(router, "host-3"), controlUrl(router, "host-4"));

            processes.router().orElseThrow().stop(ClusterProcesses.STOP_GRACE);

            await("the router's hosts stopped with it").atMost(Duration.ofSeconds(30))
                    .until(() -> started.stream().allMatch(this::refuses));
        }
    }

    /** The process of a host this router started, found by its command line. */
    private static ProcessHandle hostProcess(RouterClient router, String host) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(line -> line.contains(
                "--steadfast.host.id=" + host + " ") && line.contains("--steadfast.host.router-url=" + router.baseUrl()))
                .orElse(false)).findFirst()
                .orElseThrow(() -> new AssertionError("no process of " + host + " visible"));
    }

    private static void signal(String signal, ProcessHandle process) {
        try {
            assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor())
                    .isZero();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitLive(RouterClient router, Set<HostId> expected) {
        await("LIVE hosts " + expected).atMost(STARTUP).pollInterval(Duration.ofMillis(500))
                .until(router::liveHostIds, expected::equals);
    }

    private static URI controlUrl(RouterClient router, String host) {
        return router.hosts().stream().filter(h -> h.hostId().value().equals(host)).map(HostView::controlUrl)
                .findFirst().orElseThrow();
    }

    private void post(URI uri) {
        try {
            http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the JVM halts while it answers
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether nothing listens at the host's control URL any more. */
    private boolean refuses(URI controlUrl) {
        try {
            http.send(HttpRequest.newBuilder(controlUrl.resolve("/actuator/health")).build(),
                    HttpResponse.BodyHandlers.discarding());
            return false;
        } catch (ConnectException e) {
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
