package io.steadfast.cluster;

import io.steadfast.protocol.router.HostView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code steadfast kill-host <host-id> [--router-port N]}: crashes one host (a PE host or a voter) of a running local
 * cluster so that the router's failure detection and recovery can be watched. The host is looked up in the router's
 * {@code /api/v1/hosts}; its process, found on this machine by its command line ({@code --steadfast.host.id} and
 * {@code --steadfast.host.router-url}, as the launcher starts hosts), is killed with SIGKILL, the realistic failure.
 * Only when no such process is visible (another user's, or a platform that hides command lines) does it fall back
 * to the host's fault-injection endpoint, {@code POST /api/v1/fault/kill}, which halts the JVM the same way.
 */
@Command(name = "kill-host", sortOptions = false,
        header = "Crash a host or voter of the running local cluster, to watch its recovery.",
        description = {
            "Crashes a host or a voter (a voter-service, which runs vote tasks) of a running local cluster: kill -9"
                    + " of its process (found by its command line), or, if the process is not visible here, POST"
                    + " /api/v1/fault/kill on it (fault injection, enabled in the local cluster). The launcher then"
                    + " shows the failure detection and recovery; with --replace-failed-hosts (its default) the router"
                    + " also starts a fresh one of the same kind.",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:killed", "1:the router or the host could not be reached, or knows no such host",
            "2:invalid arguments"})
final class KillHostCommand implements Callable<Integer> {

    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "HOST-ID",
            description = "the host or voter to kill, e.g. host-2 or voter-1 (see the launcher's output or GET"
                    + " /api/v1/hosts)")
    private String hostId;

    @Option(names = "--router-port", paramLabel = "PORT", converter = PortConverter.class,
            description = "the cluster's router port (default: ${DEFAULT-VALUE})")
    private int routerPort = LaunchOptions.DEFAULT_ROUTER_PORT;

    @Override
    public Integer call() {
        HostId id;
        try {
            id = new HostId(hostId);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        kill(id, new RouterClient(URI.create("http://127.0.0.1:" + routerPort)), spec.commandLine().getOut());
        return 0;
    }

    /** Kills the host's process, or asks the host to halt itself if its process is not visible. */
    private static void kill(HostId id, RouterClient router, PrintWriter out) {
        List<HostView> hosts = router.hosts();
        HostView host = hosts.stream().filter(h -> h.hostId().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("The router at " + router.baseUrl() + " knows no host '"
                        + id + "'; its hosts: " + hosts.stream().map(h -> h.hostId() + " (" + h.status() + ")")
                        .collect(Collectors.joining(", ")) + ". Pass --router-port if the cluster runs on another port."));
        if (!host.isLive()) {
            out.println("Note: the router lists " + id + " as " + host.status() + ".");
        }
        String what = host.kind() == HostKind.VOTER ? "voter " + id : id.value();
        Optional<ProcessHandle> process = hostProcess(id, router.baseUrl());
        if (process.isPresent()) {
            long pid = process.get().pid();
            if (!process.get().destroyForcibly()) {
                throw new IllegalStateException("Could not send SIGKILL to " + id + " (pid " + pid + ")");
            }
            boolean gone = process.get().onExit().completeOnTimeout(null, EXIT_WAIT.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS).join() != null || !process.get().isAlive();
            out.println("Killed " + what + " (pid " + pid + ") with SIGKILL" + (gone ? "" : "; it has not exited yet")
                    + ". Watch the launcher's output for the recovery, or GET " + router.baseUrl() + "/api/v1/recoveries");
            return;
        }
        URI fault = host.controlUrl().resolve("/api/v1/fault/kill");
        int status = post(fault);
        if (status == 404) {
            throw new IllegalStateException("No process of " + id + " is visible here and its fault injection is off ("
                    + fault + " answered 404); start hosts with steadfast.host.fault-injection.enabled=true or kill it"
                    + " where it runs");
        }
        if (status / 100 != 2) {
            throw new IllegalStateException("POST " + fault + " answered HTTP " + status);
        }
        out.println("Asked " + id + " to halt (POST " + fault + ", fault injection). Watch the launcher's output for"
                + " the recovery, or GET " + router.baseUrl() + "/api/v1/recoveries");
    }

    /** The host process started for this router, recognised by the two arguments the launcher gives every host. */
    static Optional<ProcessHandle> hostProcess(HostId id, URI routerUrl) {
        String idArg = "--steadfast.host.id=" + id.value();
        String routerArg = "--steadfast.host.router-url=" + routerUrl;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(List::of)
                        .map(arguments -> arguments.contains(idArg) && arguments.contains(routerArg))
                        .orElse(false))
                .findFirst();
    }

    private static int post(URI uri) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("POST " + uri + " failed: " + e + "; is the host still running?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking the host to halt", e);
        }
    }
}
